/// How large a photo goes out (SPEC §13): its own size, or fitted inside a square whose side is
/// the long edge, never enlarged.
public enum ImageSize: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The photo's own pixels.
    case original
    /// 2048 pixels on the long edge.
    case large
    /// 1024 pixels on the long edge.
    case medium
    /// 640 pixels on the long edge.
    case small

    /// The long edge in pixels; nil for the original.
    public var longEdge: Int? {
        switch self {
        case .original: nil
        case .large: 2048
        case .medium: 1024
        case .small: 640
        }
    }

    /// The word people see: "Original", "Large".
    public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    public var description: String { rawValue }

    /// The size a person or a configuration file named (`small`, `Large`), or nil.
    public init?(named name: String) {
        self.init(rawValue: name.trimmingCharacters(in: .whitespaces).lowercased())
    }
}
