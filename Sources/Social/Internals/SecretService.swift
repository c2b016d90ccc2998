import CGIO
import CSecret
import Foundation

/// The desktop's Secret Service (GNOME Keyring, KWallet) through libsecret: the one place this
/// module calls it. Items carry the attributes `application=org.sharesheet` and `service=NAME`.
enum SecretService {
    /// A libsecret call failed; `unreachable` when no Secret Service answers on the session bus.
    struct Failure: Error, CustomStringConvertible {
        var call: String
        var message: String
        var unreachable: Bool
        var description: String { "\(call): \(message)" }
    }

    static let schemaName = "org.sharesheet.Account"

    /// True when a session bus is there to ask; without one libsecret is not tried at all.
    static func busIsPresent(environment: [String: String]) -> Bool {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return FileManager.default.fileExists(atPath: runtime + "/bus")
        }
        return false
    }

    static func store(_ secret: String, service: String, label: String) throws {
        try withSchemaAndAttributes(service: service) { schema, attributes in
            var error: UnsafeMutablePointer<GError>?
            let stored = secret_password_storev_sync(schema, attributes, nil, label, secret, nil, &error)
            if stored == 0 { throw failure("secret_password_storev_sync", &error) }
        }
    }

    static func lookup(service: String) throws -> String? {
        try withSchemaAndAttributes(service: service) { schema, attributes in
            var error: UnsafeMutablePointer<GError>?
            let found = secret_password_lookupv_sync(schema, attributes, nil, &error)
            if let error = error {
                var owned: UnsafeMutablePointer<GError>? = error
                throw failure("secret_password_lookupv_sync", &owned)
            }
            guard let found else { return nil }
            defer { secret_password_free(found) }
            return String(cString: found)
        }
    }

    /// - Returns: true when an item was removed.
    static func clear(service: String) throws -> Bool {
        try withSchemaAndAttributes(service: service) { schema, attributes in
            var error: UnsafeMutablePointer<GError>?
            let removed = secret_password_clearv_sync(schema, attributes, nil, &error)
            if error != nil { throw failure("secret_password_clearv_sync", &error) }
            return removed != 0
        }
    }

    private static func withSchemaAndAttributes<Result>(
        service: String, _ body: (UnsafePointer<SecretSchema>, OpaquePointer) throws -> Result
    ) throws -> Result {
        let types = newStringTable()
        // SECRET_SCHEMA_ATTRIBUTE_STRING is 0: a NULL value in the table.
        g_hash_table_insert(types, g_strdup("application"), nil)
        g_hash_table_insert(types, g_strdup("service"), nil)
        guard let schema = secret_schema_newv(schemaName, SECRET_SCHEMA_NONE, types) else {
            g_hash_table_unref(types)
            throw Failure(call: "secret_schema_newv", message: "cannot make the schema", unreachable: false)
        }
        g_hash_table_unref(types)
        defer { secret_schema_unref(schema) }
        let attributes = newStringTable()
        defer { g_hash_table_unref(attributes) }
        g_hash_table_insert(attributes, g_strdup("application"), UnsafeMutableRawPointer(g_strdup("org.sharesheet")))
        g_hash_table_insert(attributes, g_strdup("service"), UnsafeMutableRawPointer(g_strdup(service)))
        return try body(schema, attributes)
    }

    private static func newStringTable() -> OpaquePointer {
        g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)
    }

    private static func failure(_ call: String, _ error: inout UnsafeMutablePointer<GError>?) -> Failure {
        defer {
            if error != nil { g_error_free(error) }
            error = nil
        }
        let message = error?.pointee.message.map { String(cString: $0) } ?? "unknown error"
        let isDBus = error.map { $0.pointee.domain == g_dbus_error_quark() || $0.pointee.domain == g_io_error_quark() } ?? false
        return Failure(call: call, message: message, unreachable: isDBus)
    }
}
