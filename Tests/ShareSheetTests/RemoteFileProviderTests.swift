import Foundation
import ShareSheet
import ShareSheetTesting
import Testing

@MainActor
@Suite("RemoteFileProvider downloads only after the pick", .serialized)
struct RemoteFileProviderTests {
    private let body = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    @Test("nothing is fetched while the sheet is built; after the pick the file arrives whole, under its name")
    func downloadsAfterPick() async throws {
        let server = try LoopbackHTTPServer(serving: body)
        defer { server.stop() }
        let provider = RemoteFileProvider(url: server.url("photos/cat.png"))
        let (registry, backends) = inMemoryRegistry()
        let controller = ActivityViewController(activityItems: [provider], applicationActivities: nil, registry: registry)
        // The placeholder is the local file the download will become, typed by its name.
        #expect(controller.activities.contains { $0.activityType == .saveToCameraRoll })
        #expect(server.requests.isEmpty)
        controller.present(with: ScriptedPresenter(pick: .saveToCameraRoll))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed)
        #expect(server.requests == ["/photos/cat.png"])
        let received = try #require(backends.received[.saveToCameraRoll]?.first?.first as? URL)
        #expect(received.lastPathComponent == "cat.png")
        #expect(try Data(contentsOf: received) == body)
        #expect(provider.progress.completedUnitCount == Int64(body.count))
    }

    @Test("a link that redirects is followed to the file")
    func followsRedirect() async throws {
        let server = try LoopbackHTTPServer(serving: body)
        defer { server.stop() }
        let provider = RemoteFileProvider(url: server.url("moved/photos/cat.png"))
        let fake = FakeActivity(type: .testA)
        let controller = ActivityViewController(activityItems: [provider], applicationActivities: [fake])
        controller.present(with: ScriptedPresenter(pick: .testA))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed, "\(String(describing: outcome.error))")
        #expect(server.requests == ["/moved/photos/cat.png", "/photos/cat.png"])
        let received = try #require(fake.preparedItems?.first as? URL)
        #expect(try Data(contentsOf: received) == body)
    }

    @Test("a server error fails the share with the status and leaves no file")
    func serverError() async throws {
        let server = try LoopbackHTTPServer(serving: body)
        defer { server.stop() }
        let provider = RemoteFileProvider(url: server.url("missing/cat.png"))
        let fake = FakeActivity(type: .testA)
        let controller = ActivityViewController(activityItems: [provider], applicationActivities: [fake])
        controller.present(with: ScriptedPresenter(pick: .testA))
        let outcome = await controller.waitForCompletion()
        #expect(outcome.completed == false)
        let error = try #require(outcome.error as? ShareError)
        #expect(error.kind == .noInput)
        #expect(error.message.hasSuffix("/missing/cat.png: the server answered 404"))
        #expect(FileManager.default.fileExists(atPath: provider.fileURL.path) == false)
        #expect(fake.preparedItems == nil)
    }

    @Test("dismissing during the download stops it and leaves nothing behind")
    func dismissDuringDownload() async throws {
        let server = try LoopbackHTTPServer(serving: body)
        defer { server.stop() }
        let provider = RemoteFileProvider(url: server.url("slow/cat.png"))
        let fake = FakeActivity(type: .testA)
        let controller = ActivityViewController(activityItems: [provider], applicationActivities: [fake])
        controller.present()
        #expect(controller.select(.testA))
        while server.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        controller.dismiss()
        await controller.waitForProvidersToStop()
        server.release()
        let folder = provider.fileURL.deletingLastPathComponent()
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        #expect(leftovers.isEmpty)
        #expect(fake.preparedItems == nil)
    }
}
