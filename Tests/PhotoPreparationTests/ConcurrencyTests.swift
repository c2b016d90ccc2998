import Foundation
import LocalTestSupport
import PhotoPreparation
import ShareSheet
import Testing

/// `prepare` from several threads at once: libvips and gexiv2 are started once and shared.
@Suite("Photo preparation from several threads")
struct ConcurrencyTests {
    @Test("eight photos prepared concurrently, each right")
    func concurrent() throws {
        let scratch = try TemporaryFolder("photo-threads")
        defer { scratch.remove() }
        let source = scratch.file("photo.jpg")
        try PhotoFixture.located(source, orientation: 6, width: 1600, height: 1200)
        let folders = try (0..<8).map { try scratch.folder("out-\($0)") }
        let results = Locked<[Int: Result<PreparedPhoto, any Error>]>([:])

        DispatchQueue.concurrentPerform(iterations: folders.count) { index in
            // Even ones resized (libvips), odd ones only stripped (gexiv2).
            let options = index.isMultiple(of: 2) ? PhotoOptions(longEdge: 320) : PhotoOptions()
            let result = Result { try PhotoPreparation.prepare(source, options: options, into: folders[index]) }
            results.withLock { $0[index] = result }
        }

        for index in folders.indices {
            let prepared = try #require(try results.withLock { $0[index] }?.get())
            #expect(prepared.wasReencoded == index.isMultiple(of: 2))
            #expect(!(try PhotoFixture.metadata(prepared.url)).contains("GPS"))
            let expected = index.isMultiple(of: 2) ? (240, 320) : (1200, 1600)
            #expect((prepared.pixelWidth, prepared.pixelHeight) == expected)
        }
    }
}
