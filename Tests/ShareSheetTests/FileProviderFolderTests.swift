import Foundation
import ShareSheet
import ShareSheetTesting
import Testing

@MainActor
@Suite("A FileProvider's folder is made only when its document is written")
struct FileProviderFolderTests {
    @Test("only listed: the folder never exists, the placeholder is named under a random UUID")
    func listedOnly() throws {
        var provider: FileProvider? = FileProvider(filename: "notes.txt") { url in
            try Data("never".utf8).write(to: url)
        }
        let file = try #require(provider?.fileURL)
        let folder = file.deletingLastPathComponent()
        #expect(file.lastPathComponent == "notes.txt")
        #expect(!file.hasDirectoryPath)
        let uuid = try #require(folder.lastPathComponent.split(separator: "-", maxSplits: 1).last.map(String.init))
        #expect(folder.lastPathComponent.hasPrefix("sharesheet-"))
        #expect(UUID(uuidString: uuid) != nil)
        #expect(Array(uuid)[14] == "4")  // version 4: random
        let controller = ActivityViewController(
            activityItems: [provider!], applicationActivities: [FakeActivity(type: .testA)])
        #expect(controller.sheet.activities.count == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
        provider = nil
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test("written, then released: its folder goes with it")
    func writtenThenReleased() async throws {
        var provider: FileProvider? = FileProvider(filename: "notes.txt") { url in
            try Data("kept".utf8).write(to: url)
        }
        let file = try #require(provider?.fileURL)
        provider?.start()
        for _ in 0..<500 where provider?.isFinished == false { try await Task.sleep(for: .milliseconds(10)) }
        #expect(try String(contentsOf: file, encoding: .utf8) == "kept")
        provider = nil
        #expect(!FileManager.default.fileExists(atPath: file.deletingLastPathComponent().path))
    }

    @Test("each provider gets a folder of its own")
    func uniqueFolders() {
        let folders = Set((0..<200).map { _ in
            FileProvider(filename: "a") { _ in }.fileURL.deletingLastPathComponent().path
        })
        #expect(folders.count == 200)
    }
}
