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

    /// One of our items as an attributes-only search sees it.
    struct Entry: Equatable, Sendable {
        /// Its `service` attribute.
        var service: String
        /// True when its collection is locked: its secret cannot be read without unlocking.
        var locked: Bool
    }

    static func store(_ secret: String, service: String, label: String) throws {
        try withSchema(attributes: attributes(service: service)) { schema, attributes in
            var error: UnsafeMutablePointer<GError>?
            let stored = secret_password_storev_sync(schema, attributes, nil, label, secret, nil, &error)
            if stored == 0 { throw failure("secret_password_storev_sync", &error) }
        }
    }

    /// Reads the secret of `service`'s item, unlocking its collection when it is locked (the
    /// Secret Service may prompt for the keyring's password). Only when a token is needed.
    static func lookup(service: String) throws -> String? {
        try withSchema(attributes: attributes(service: service)) { schema, attributes in
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

    /// Every item of ours, locked or not, from its attributes: one `SearchItems` call and the
    /// items' properties, on one connection. Reads no secret, opens no session, unlocks nothing.
    static func search() throws -> [Entry] {
        try withSchema(attributes: ["application": application]) { schema, attributes in
            var error: UnsafeMutablePointer<GError>?
            guard let service = secret_service_get_sync(SECRET_SERVICE_NONE, nil, &error) else {
                throw failure("secret_service_get_sync", &error)
            }
            defer { g_object_unref(service) }
            // SECRET_SEARCH_ALL alone: neither SECRET_SEARCH_UNLOCK nor SECRET_SEARCH_LOAD_SECRETS.
            let items = secret_service_search_sync(service, schema, attributes, SECRET_SEARCH_ALL, nil, &error)
            if error != nil { throw failure("secret_service_search_sync", &error) }
            defer { g_list_free_full(items, g_object_unref) }
            var entries: [Entry] = []
            var node = items
            while let current = node {
                node = current.pointee.next
                guard let item = current.pointee.data?.assumingMemoryBound(to: SecretItem.self),
                    let table = secret_item_get_attributes(item)
                else { continue }
                defer { g_hash_table_unref(table) }
                guard let value = g_hash_table_lookup(table, "service") else { continue }
                entries.append(
                    Entry(
                        service: String(cString: value.assumingMemoryBound(to: CChar.self)),
                        locked: secret_item_get_locked(item) != 0))
            }
            return entries
        }
    }

    /// - Returns: true when an item was removed.
    static func clear(service: String) throws -> Bool {
        try withSchema(attributes: attributes(service: service)) { schema, attributes in
            var error: UnsafeMutablePointer<GError>?
            let removed = secret_password_clearv_sync(schema, attributes, nil, &error)
            if error != nil { throw failure("secret_password_clearv_sync", &error) }
            return removed != 0
        }
    }

    private static let application = "org.sharesheet"

    private static func attributes(service: String) -> [String: String] {
        ["application": application, "service": service]
    }

    private static func withSchema<Result>(
        attributes values: [String: String], _ body: (UnsafePointer<SecretSchema>, OpaquePointer) throws -> Result
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
        for (name, value) in values {
            g_hash_table_insert(attributes, g_strdup(name), UnsafeMutableRawPointer(g_strdup(value)))
        }
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
