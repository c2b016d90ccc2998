import Foundation
import Testing
import UniformTypes

@Suite("Concurrent use")
struct ConcurrencyTests {
    @Test("Lookups from many tasks at once agree with a serial run")
    func concurrentLookups() async {
        let extensions = [
            "jpg", "png", "pdf", "txt", "mp4", "odt", "recipe", "JPG", "tar.gz", "heic",
        ]
        let serial = extensions.map(Self.summary)
        let results = await withTaskGroup(of: (Int, String).self) { group in
            for _ in 0..<20 {
                for (index, name) in extensions.enumerated() {
                    group.addTask { (index, Self.summary(name)) }
                }
            }
            var collected: [(Int, String)] = []
            for await result in group { collected.append(result) }
            return collected
        }
        #expect(results.count == 20 * extensions.count)
        for (index, summary) in results {
            #expect(summary == serial[index])
        }
    }

    /// Exercises every GIO-backed path for one extension.
    private static func summary(_ name: String) -> String {
        guard let type = UTType(filenameExtension: name, conformingTo: .item) else { return "nil" }
        let sniffed = UTType.type(ofData: Data("%PDF-1.4\n".utf8), filename: "x." + name)
        return [
            type.identifier, type.preferredFilenameExtension ?? "-", type.preferredMIMEType ?? "-",
            type.localizedDescription ?? "-",
            type.supertypes.map(\.identifier).sorted().joined(separator: ","),
            String(type.conforms(to: .image)), (type.tags[.mimeType] ?? []).joined(separator: ","),
            sniffed.identifier,
        ].joined(separator: "|")
    }
}
