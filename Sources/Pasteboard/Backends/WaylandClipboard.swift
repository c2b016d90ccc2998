import Foundation
import ShareSheet

/// The Wayland clipboard (`WAYLAND_DISPLAY`), through `wl-copy` and `wl-paste` (wl-clipboard).
///
/// `wl-copy` offers one MIME type per copy (for text it adds the usual text aliases itself), so
/// an item goes on the clipboard as its best representation for pasting: text for text, links
/// and colors, `text/uri-list` for local files that are not images, PNG for images, JSON for
/// dictionaries. Offering every representation at once on Wayland needs a client of the
/// data-control protocol, which ShareSheet does not have yet.
public struct WaylandClipboard: PasteboardBackend {
    /// The Wayland display.
    public let display: String
    private let environment: [String: String]
    private let copy: String
    private let paste: String?

    /// The Wayland clipboard, or nil without `WAYLAND_DISPLAY` or `wl-copy`.
    public init?(environment: [String: String]) {
        guard let display = environment["WAYLAND_DISPLAY"], !display.isEmpty,
            let copy = Subprocess.find("wl-copy", environment: environment)
        else { return nil }
        self.display = display
        self.environment = environment
        self.copy = copy
        paste = Subprocess.find("wl-paste", environment: environment)
    }

    public var name: String { "Wayland clipboard (WAYLAND_DISPLAY=\(display), wl-copy)" }

    /// The representation `wl-copy` offers for an item.
    static func preferred(_ item: PasteboardItem) -> PasteboardItem.Representation? {
        let order = [PasteboardItem.png, PasteboardItem.json, PasteboardItem.utf8Text, PasteboardItem.uriList]
        let isLocalFile = item.data(forType: PasteboardItem.copiedFiles) != nil
        if isLocalFile, item.data(forType: PasteboardItem.png) == nil,
            let list = item.representations.first(where: { $0.type == PasteboardItem.uriList })
        {
            return list
        }
        for type in order {
            if let found = item.representations.first(where: { $0.type == type }) { return found }
        }
        return item.representations.first
    }

    public func write(_ items: [PasteboardItem]) throws {
        try write(items, inherited: nil)
    }

    /// The copy `wl-copy` forks to serve the clipboard inherits the files' lock (as descriptor
    /// 3) and holds it until another program takes the clipboard.
    public func write(_ items: [PasteboardItem], keeping files: ClipboardFiles) throws {
        try write(items, inherited: files.lockDescriptor)
    }

    private func write(_ items: [PasteboardItem], inherited: Int32?) throws {
        guard let best = Self.preferred(PasteboardItem.merged(items)) else {
            throw ShareError(.usage, "pasteboard: nothing to copy")
        }
        let type = best.type == PasteboardItem.utf8Text ? PasteboardItem.plainText : best.type
        let (status, message) = try Subprocess.runForking(
            copy, ["--type", type], input: best.data, environment: environment, inherited: inherited)
        guard status == 0 else { throw ShareError(.unavailable, "Wayland clipboard: wl-copy: \(message)") }
    }

    public func types() throws -> [String] {
        guard let paste else { return [] }
        let result = try Subprocess.run(paste, ["--list-types"], environment: environment)
        guard result.status == 0 else { return [] }
        return String(decoding: result.standardOutput, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
    }

    public func data(forType type: String) throws -> Data? {
        guard let paste, try types().contains(type) else { return nil }
        let result = try Subprocess.run(paste, ["--no-newline", "--type", type], environment: environment)
        return result.status == 0 ? result.standardOutput : nil
    }
}
