/// A file name as people see it, and as it travels to somebody else.
///
/// A name may hold a line break (`a⏎b.txt` is a legal name on Linux). Shown as it is, it would
/// break a listing's line or an error message in two; put in a mail header or a transfer's file
/// name, it could start a header of its own. Such a name is shared, not refused: shown with the
/// break escaped, and sent with the break as a space.
public enum FileNames {
    /// `name` for a listing, a sheet or a message: line breaks, tabs and other control
    /// characters escaped (`a\nb.txt`, `\r`, `\t`, `\u{1B}`), everything else as it is.
    public static func shown(_ name: String) -> String {
        guard name.unicodeScalars.contains(where: isControl) else { return name }
        var shown = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            case "\t": shown += "\\t"
            default:
                if isControl(scalar) {
                    shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    shown.unicodeScalars.append(scalar)
                }
            }
        }
        return shown
    }

    /// `name` as the name of an attachment or a transferred file: each line break (`\r\n`,
    /// `\n` or `\r`) becomes one space; other control characters are dropped.
    public static func sendable(_ name: String) -> String {
        guard name.unicodeScalars.contains(where: isControl) else { return name }
        var sent = ""
        var previous: Unicode.Scalar?
        for scalar in name.unicodeScalars {
            defer { previous = scalar }
            switch scalar {
            case "\n" where previous == "\r": continue
            case "\n", "\r": sent += " "
            default: if !isControl(scalar) { sent.unicodeScalars.append(scalar) }
            }
        }
        return sent
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }
}
