import Foundation
import ShareSheet
import ShareSheetBuiltins
import ShareSheetTerminal
import ShareSheetUIKit
import Testing

// The README's Swift example, compiled here exactly as printed there, so it cannot rot.
final class PhotoProvider: UIActivityItemProvider, @unchecked Sendable {
    let photoURL: URL

    init(_ photoURL: URL) {
        self.photoURL = photoURL
        super.init(placeholderItem: UIImage())  // "an image will come": image activities are offered
    }

    override var item: Any {  // runs off the main actor, after the pick
        if activityType == .mail || activityType == .message {
            return "The photo link is \(photoURL.absoluteString)."
        }
        guard let data = try? Data(contentsOf: photoURL), let image = UIImage(data: data) else {
            return NSNull()  // leaves the item out
        }
        return image
    }
}

@MainActor func share(_ photoURL: URL) async {
    let controller = UIActivityViewController(
        activityItems: [PhotoProvider(photoURL), "Look at this!"], applicationActivities: nil)
    controller.excludedActivityTypes = [.print]
    controller.completionWithItemsHandler = { type, completed, returned, error in
        print(type?.rawValue ?? "dismissed", completed)
    }
    controller.present(with: TerminalPresenter())  // or any Presenter: a window, a script
    _ = await controller.waitForCompletion()
}

@MainActor
@Suite("The README stays true")
struct ReadmeTests {
    private static var readme: String {
        get throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            return try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        }
    }

    @Test("the Swift example in the README is the one compiled in this file")
    func exampleIsCompiled() throws {
        let readme = try Self.readme
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let start = try #require(readme.range(of: "final class PhotoProvider"))
        let end = try #require(readme.range(of: "_ = await controller.waitForCompletion()\n}", range: start.upperBound..<readme.endIndex))
        let example = String(readme[start.lowerBound..<end.upperBound])
        // Compare ignoring spacing, which the formatter may change.
        func squeezed(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        #expect(squeezed(source).contains(squeezed(example)))
    }

    @Test("the status table says, for every built-in, whether this build has its backend")
    func statusTable() throws {
        let registry = ActivityRegistry()
        Builtins.install(into: registry)
        let readme = try Self.readme
        let section = try #require(readme.range(of: "## Built-in activities"))
        var rows: [String: String] = [:]
        for line in readme[section.upperBound...].split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 3, cells[0] != "activity", !cells[0].hasPrefix("---") else { continue }
            rows[cells[1]] = cells[2]
        }
        #expect(rows.count == registry.descriptors.count)
        for descriptor in registry.descriptors {
            let status = try #require(rows[descriptor.name], "README has no row for \(descriptor.name)")
            if let retired = descriptor.retiredReason {
                #expect(status == "retired: \(retired)")
            } else if registry.isInstalled(descriptor.type) {
                #expect(status.hasPrefix("available"), "\(descriptor.name): \(status)")
            } else {
                #expect(status == "no backend yet", "\(descriptor.name): \(status)")
            }
        }
    }
}
