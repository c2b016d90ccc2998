import Foundation
import ShareSheet
import ShareSheetSystem

/// Where a pasteboard keeps its contents: the desktop's clipboard or a file.
///
/// An implementation must guarantee that after `write(_:)` returns, `types()` and `data(forType:)`
/// (in this process or another) see the new contents, and that a failed write leaves the old
/// contents in place.
public protocol PasteboardBackend: Sendable {
    /// What it is, for people ("X11 clipboard (DISPLAY=:1)").
    var name: String { get }
    /// Replaces the contents with one item made of every representation of `items`.
    func write(_ items: [PasteboardItem]) throws
    /// The types offered now, best first; empty when there is nothing.
    func types() throws -> [String]
    /// The bytes of one type, or nil when it is not offered.
    func data(forType type: String) throws -> Data?
    /// Replaces the contents as `write(_:)` does, and keeps `files` (the private copies the
    /// contents name) for as long as the contents stay: the process that serves them inherits
    /// `files`' lock. Returns once that process holds it; the caller then lets go of its own.
    func write(_ items: [PasteboardItem], keeping files: ClipboardFiles) throws
}

extension PasteboardBackend {
    /// A backend with no process of its own (a file) only writes: the next copy finds the
    /// files' lock free and removes them, once its own contents replaced these.
    public func write(_ items: [PasteboardItem], keeping files: ClipboardFiles) throws {
        try write(items)
    }
}

/// The pasteboard: the UIPasteboard equivalent, with `general` for the desktop's clipboard.
///
/// A system clipboard holds one item at a time; several items are merged into one (see
/// `PasteboardItem.merged(_:)`).
public final class Pasteboard: Sendable {
    /// Where the contents live.
    public let backend: any PasteboardBackend

    /// A pasteboard on `backend`.
    public init(backend: any PasteboardBackend) {
        self.backend = backend
    }

    /// The general pasteboard of this environment (see `automaticBackend(environment:)`).
    public static var general: Pasteboard { Pasteboard(backend: automaticBackend()) }

    /// The clipboard of the session, when there is one: Wayland (`WAYLAND_DISPLAY`, through
    /// `wl-copy`/`wl-paste`), else X11 (`DISPLAY`, through ShareSheet's own clipboard owner, or
    /// `xclip`/`xsel`); without a display, the file-backed pasteboard under
    /// `$XDG_DATA_HOME/sharesheet`.
    public static func automaticBackend(
        environment: [String: String] = HostEnvironment.process.variables
    ) -> any PasteboardBackend {
        if let wayland = WaylandClipboard(environment: environment) { return wayland }
        if let x11 = X11Clipboard(environment: environment) { return x11 }
        return FilePasteboard(folder: XDGDirectories(environment: environment).shareSheetData)
    }

    /// Replaces the contents with `items`.
    public func setItems(_ items: [PasteboardItem]) throws {
        guard !items.isEmpty else { throw ShareError(.usage, "pasteboard: nothing to copy") }
        try backend.write(items)
    }

    /// Replaces the contents with `items`, which name the private copies in `files`; those stay
    /// for as long as the contents do. On failure `files` are removed.
    public func setItems(_ items: [PasteboardItem], keeping files: ClipboardFiles) throws {
        guard !items.isEmpty else {
            files.discard()
            throw ShareError(.usage, "pasteboard: nothing to copy")
        }
        do {
            try backend.write(items, keeping: files)
        } catch {
            files.discard()
            throw error
        }
        files.release()
    }

    /// The types offered, best first.
    public var types: [String] { (try? backend.types()) ?? [] }

    /// The bytes of `type` (a MIME type), if offered.
    public func data(forType type: String) -> Data? { try? backend.data(forType: type) }

    /// The text on the pasteboard, or nil; setting it replaces the contents.
    public var string: String? {
        get {
            for type in Self.textTypes {
                if let data = data(forType: type) { return String(decoding: data, as: UTF8.self) }
            }
            return nil
        }
        set { try? setItems(newValue.map { [PasteboardItem(string: $0)] } ?? []) }
    }

    /// The URLs on the pasteboard (from `text/uri-list`); setting them replaces the contents.
    public var urls: [URL] {
        get {
            guard let data = data(forType: PasteboardItem.uriList) else { return [] }
            return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
                .filter { !$0.hasPrefix("#") }.compactMap { URL(string: String($0)) }
        }
        set { try? setItems(newValue.compactMap { try? PasteboardItem(url: $0) }) }
    }

    /// The first URL on the pasteboard.
    public var url: URL? { urls.first }

    /// The image on the pasteboard (PNG preferred), or nil.
    public var image: Image? {
        if let png = data(forType: PasteboardItem.png) { return Image(data: png, type: .png) }
        for type in types where type.hasPrefix("image/") {
            if let data = data(forType: type), let image = Image(data: data) { return image }
        }
        return nil
    }

    /// The color on the pasteboard (`application/x-color`), or nil.
    public var color: Color? {
        guard let data = data(forType: PasteboardItem.color), data.count == 8 else { return nil }
        let values = (0..<4).map { index in
            Double(data[data.startIndex + index * 2..<data.startIndex + index * 2 + 2].withUnsafeBytes { $0.loadUnaligned(as: UInt16.self) }) / 65535
        }
        return Color(red: values[0], green: values[1], blue: values[2], alpha: values[3])
    }

    /// Text types, best first, as clipboards name them.
    public static let textTypes = [PasteboardItem.utf8Text, "UTF8_STRING", PasteboardItem.plainText, "text/plain;charset=UTF-8", "STRING", "TEXT"]
}

extension PasteboardItem {
    /// Several items as the one item a system clipboard holds: `text/uri-list` lists every URL,
    /// the copied-files list every file, text joins every item's text by lines; any other type
    /// comes from the first item that has it.
    public static func merged(_ items: [PasteboardItem]) -> PasteboardItem {
        guard items.count > 1 else { return items.first ?? PasteboardItem(representations: []) }
        var order: [String] = []
        var parts: [String: [Data]] = [:]
        for item in items {
            for representation in item.representations {
                if parts[representation.type] == nil { order.append(representation.type) }
                parts[representation.type, default: []].append(representation.data)
            }
        }
        return PasteboardItem(representations: order.map { type in
            let values = parts[type]!
            switch type {
            case uriList: return .init(type: type, data: values.reduce(Data(), +))
            case copiedFiles:
                let lines = values.flatMap { String(decoding: $0, as: UTF8.self).split(separator: "\n").dropFirst() }
                return .init(type: type, data: Data((["copy"] + lines.map(String.init)).joined(separator: "\n").utf8))
            case utf8Text, plainText: return .init(type: type, data: Data(values.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n").utf8))
            default: return .init(type: type, data: values[0])
            }
        })
    }
}
