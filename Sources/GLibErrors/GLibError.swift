import CGIO

/// A failed GLib, GIO or GDBus call, as one Swift error: which call failed, the error's domain
/// (its quark's string, such as "g-io-error-quark"), its code in that domain, and its message.
/// Made from a `GError *`, which it frees, so no caller converts or frees one by hand.
public struct GLibError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The C function that failed ("g_dbus_connection_call_sync").
    public var call: String
    /// The error domain as its quark's string ("g-io-error-quark", "g-dbus-error-quark",
    /// "g-key-file-error-quark"); empty when the call failed without saying why.
    public var domain: String
    /// The code within `domain` (`G_IO_ERROR_NOT_FOUND`…).
    public var code: Int32
    /// GLib's message, without GDBus's "GDBus.Error:NAME: " prefix.
    public var message: String
    /// The D-Bus error name when the error came over the bus ("org.freedesktop.DBus.Error.ServiceUnknown").
    public var remoteName: String?

    /// GIO's domain, `G_IO_ERROR`.
    public static let ioDomain = "g-io-error-quark"
    /// GDBus's domain, `G_DBUS_ERROR`.
    public static let dbusDomain = "g-dbus-error-quark"

    /// An error with these parts (tests, and failures GLib did not describe).
    public init(call: String, domain: String, code: Int32, message: String, remoteName: String? = nil) {
        self.call = call
        self.domain = domain
        self.code = code
        self.message = message
        self.remoteName = remoteName
    }

    /// Reads `error`, frees it and sets it to nil. A call that failed without setting an error
    /// gives an empty domain and the message "CALL failed".
    public init(taking error: inout UnsafeMutablePointer<GError>?, call: String) {
        defer {
            if let error { g_error_free(error) }
            error = nil
        }
        guard let pointer = error else {
            self.init(call: call, domain: "", code: 0, message: "\(call) failed")
            return
        }
        self.init(reading: pointer, call: call)
    }

    /// Reads `error` and frees it.
    public init(taking error: UnsafeMutablePointer<GError>, call: String) {
        defer { g_error_free(error) }
        self.init(reading: error, call: call)
    }

    /// Reads `error` without freeing it (its owner frees it); strips the remote-error prefix
    /// from its message in place.
    public init(reading error: UnsafeMutablePointer<GError>, call: String) {
        let remote = g_dbus_error_get_remote_error(error)
        let remoteName = remote.map { String(cString: $0) }
        g_free(remote)
        if remoteName != nil { g_dbus_error_strip_remote_error(error) }
        let domain = g_quark_to_string(error.pointee.domain).map { String(cString: $0) } ?? ""
        let message = error.pointee.message.map { String(cString: $0) } ?? "\(call) failed"
        self.init(call: call, domain: domain, code: error.pointee.code, message: message, remoteName: remoteName)
    }

    /// True when the error is `code` of GIO's domain (`G_IO_ERROR_CANCELLED`…).
    public func isIO(_ code: GIOErrorEnum) -> Bool { domain == Self.ioDomain && self.code == Int32(code.rawValue) }

    /// True when the error is `code` of GDBus's domain (`G_DBUS_ERROR_SERVICE_UNKNOWN`…).
    public func isDBus(_ code: GDBusError) -> Bool { domain == Self.dbusDomain && self.code == Int32(code.rawValue) }

    /// "CALL: MESSAGE".
    public var description: String { "\(call): \(message)" }
}
