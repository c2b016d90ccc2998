import Foundation

/// A photo ready to leave the machine: where it is, how large it is, and what was done to it.
public struct PreparedPhoto: Sendable {
    /// The prepared file: in the folder given to `prepare`, or the source itself when nothing
    /// had to change.
    public var url: URL
    /// The width in pixels as displayed (its orientation applied).
    public var pixelWidth: Int
    /// The height in pixels as displayed (its orientation applied).
    public var pixelHeight: Int
    /// The prepared file's size in bytes.
    public var byteCount: Int
    /// False when `url` is the source itself, because nothing had to change.
    public var isCopy: Bool
    /// False when only metadata changed: the image data bytes are the source's.
    public var wasReencoded: Bool

    /// A prepared photo with these facts.
    public init(url: URL, pixelWidth: Int, pixelHeight: Int, byteCount: Int, isCopy: Bool, wasReencoded: Bool) {
        self.url = url
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.byteCount = byteCount
        self.isCopy = isCopy
        self.wasReencoded = wasReencoded
    }
}
