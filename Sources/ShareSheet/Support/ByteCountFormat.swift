import Foundation

/// Sizes written as GLib's `g_format_size` writes them (GLib 2.74, Debian 12), so the window
/// says what Files says: decimal units, one decimal from a kilobyte up.
///
/// 999 bytes is "999 bytes", 1000 is "1.0 kB", 12 345 678 is "12.3 MB". Like GLib, the unit is
/// the largest one not above the size and the value is then rounded, so 999 999 bytes is
/// "1000.0 kB". In the core so every front end and backend that shows a size (the window's
/// preview, Mail's summary before it sends) writes it the same way.
public enum ByteCountFormat {
    private static let units = ["kB", "MB", "GB", "TB", "PB", "EB"]

    /// `byteCount` in words.
    public static func string(_ byteCount: Int64) -> String {
        if byteCount < 1000 { return byteCount == 1 ? "1 byte" : "\(byteCount) bytes" }
        var factor: Int64 = 1000
        var unit = 0
        while unit + 1 < units.count, byteCount / 1000 >= factor {
            factor *= 1000
            unit += 1
        }
        return String(format: "%.1f", Double(byteCount) / Double(factor)) + " " + units[unit]
    }
}
