import Foundation

/// One item as a front end received it, before anything is read: what a person typed, what a
/// caller sent over D-Bus, what a window was dropped.
public enum ShareItemInput: Equatable, Sendable {
    /// A path, a `file://` URL, a web link or another scheme's link (`mailto:`, `geo:`…).
    case operand(String)
    /// Text to share as it is.
    case text(String)
    /// Everything on standard input (`-` on the command line): spooled to a private file up to
    /// a limit, and kept in memory only when it is small.
    case standardInput
    /// Everything readable from an open descriptor (a D-Bus `h`), with the name and type the
    /// sender gave; the resolver reads it and never closes it.
    case fileDescriptor(Int32, name: String?, mimeType: String?)
    /// Bytes already in memory, with the name and type the sender gave.
    case bytes(Data, name: String?, mimeType: String?)
}

/// An item ready for the controller, with the label errors and listings use for it.
public struct ResolvedItem: @unchecked Sendable {
    /// What the controller receives: a `URL`, a `String`, an `Image` or a `DataItem`.
    public var value: Any
    /// The item as it was given: the path as typed, the URL, "-", a quoted excerpt of text.
    public var label: String
    /// The private file `value` points to, which whoever resolved the item removes when the
    /// share ends (standard input too large to keep in memory); nil for everything else.
    public var spooledFile: SpooledFile?

    /// Pairs a value with its label.
    public init(value: Any, label: String, spooledFile: SpooledFile? = nil) {
        self.value = value
        self.label = label
        self.spooledFile = spooledFile
    }
}

extension Sequence<ResolvedItem> {
    /// Removes the private files of the items that have one; removing twice does nothing.
    public func removeSpooledFiles() {
        for item in self { item.spooledFile?.remove() }
    }
}
