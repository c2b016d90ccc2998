/// The names and rules the share service and its front agree on (SPEC §8). Pure Swift, so the
/// front (`sharesheet-service`) can use it without loading anything the sheet needs.
public enum ServiceNames {
    /// The well-known name the service owns on the session bus.
    public static let busName = "org.sharesheet.ShareSheet"
    /// The service's object.
    public static let objectPath = "/org/sharesheet/ShareSheet"
    /// The interface of the service's object.
    public static let interface = "org.sharesheet.ShareSheet1"
    /// The interface of a request object.
    public static let requestInterface = "org.sharesheet.Request1"
    /// The interface's version, its `version` property.
    public static let version: UInt32 = 1

    /// `/org/sharesheet/ShareSheet/request/SENDER/TOKEN`, as portals name their requests:
    /// SENDER is the caller's unique name without `:` and with `.` as `_`.
    public static func requestPath(sender: String, token: String) -> String {
        let caller = String(sender.drop { $0 == ":" }.map { $0 == "." ? "_" : $0 })
        return "\(objectPath)/request/\(caller)/\(token)"
    }

    /// Whether a `handle_token` can name a request object: ASCII letters, digits and `_`.
    public static func isValidToken(_ token: String) -> Bool {
        !token.isEmpty && token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// The message of the `InvalidArgs` error for a token that cannot name a request object.
    public static let invalidTokenMessage = "handle_token must be a string of ASCII letters, digits and _"

    /// A token for a request whose caller gave none. The process ID keeps the front's tokens
    /// and the service's apart.
    public static func generatedToken(process: Int32, number: Int) -> String {
        "sharesheet\(process)_\(number)"
    }
}
