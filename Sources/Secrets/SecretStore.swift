import CGIO
import CSecret
import Foundation
import GLibErrors

/// The desktop's Secret Service (GNOME Keyring, KWallet) through libsecret, with one set of rules
/// for every secret ShareSheet keeps (posting tokens, the SMTP password):
///
/// - **Items**: the attributes `application=org.sharesheet` and `service=NAME` (`smtp`, `mastodon`…),
///   plus `server` and `user` for a login; every attribute a string. New items are stored under
///   the schema `org.sharesheet`, but lookups, searches and removals match on the attributes alone
///   (`SECRET_SCHEMA_DONT_MATCH_NAME`), so an item made with `secret-tool store … application
///   org.sharesheet service smtp …`, as the README says, or by an earlier version under another
///   schema name, is found too.
/// - **No Secret Service**: without a session bus nothing is asked at all (`busIsPresent`), so
///   nothing waits on D-Bus activation. A bus on which no Secret Service answers fails with
///   `Failure.unreachable`; any other failure (a locked keyring left locked, a refused prompt)
///   is a `Failure` too. Callers decide what unreachable means for them; neither is ever taken
///   as "no secret".
public enum SecretStore {
    /// A libsecret call failed: the GLib error with the call; `unreachable` when no Secret
    /// Service answers on the session bus.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var error: GLibError
        public var unreachable: Bool
        public var message: String { error.message }
        public var description: String { error.description }
    }

    /// One of our items as an attributes-only search sees it.
    public struct Entry: Equatable, Sendable {
        /// Its `service` attribute.
        public var service: String
        /// True when its collection is locked: its secret cannot be read without unlocking.
        public var locked: Bool
    }

    /// The schema name new items carry.
    public static let schemaName = "org.sharesheet"
    /// The `application` attribute of every item.
    public static let application = "org.sharesheet"
    /// The attributes an item may have besides `application`.
    public static let attributeNames = ["service", "server", "user"]

    /// True when a session bus is there to ask; without one libsecret is not tried at all.
    public static func busIsPresent(environment: [String: String]) -> Bool {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return FileManager.default.fileExists(atPath: runtime + "/bus")
        }
        return false
    }

    /// Stores `secret` in the default collection under `attributes` (with `application`),
    /// replacing an item with the same attributes.
    public static func store(_ secret: String, attributes: [String: String], label: String) throws(Failure) {
        try withSchema(attributes) { schema, table throws(Failure) in
            var error: UnsafeMutablePointer<GError>?
            let stored = secret_password_storev_sync(schema, table, nil, label, secret, nil, &error)
            if stored == 0 { throw failure("secret_password_storev_sync", &error) }
        }
    }

    /// The secret of the first item with `attributes`, or nil when there is none. Unlocks its
    /// collection when it is locked (the Secret Service may prompt): call it only when the
    /// secret is needed.
    public static func lookup(attributes: [String: String]) throws(Failure) -> String? {
        try withSchema(attributes) { schema, table throws(Failure) in
            var error: UnsafeMutablePointer<GError>?
            let found = secret_password_lookupv_sync(schema, table, nil, &error)
            if error != nil {
                if let found { secret_password_free(found) }
                throw failure("secret_password_lookupv_sync", &error)
            }
            guard let found else { return nil }
            defer { secret_password_free(found) }
            return String(cString: found)
        }
    }

    /// Every item with `attributes`, locked or not: one `SearchItems` call and the items'
    /// properties. Reads no secret, opens no session, unlocks nothing.
    public static func search(attributes: [String: String] = [:]) throws(Failure) -> [Entry] {
        try withSchema(attributes) { schema, table throws(Failure) in
            var error: UnsafeMutablePointer<GError>?
            guard let service = secret_service_get_sync(SECRET_SERVICE_NONE, nil, &error) else {
                throw failure("secret_service_get_sync", &error)
            }
            defer { g_object_unref(service) }
            // SECRET_SEARCH_ALL alone: neither SECRET_SEARCH_UNLOCK nor SECRET_SEARCH_LOAD_SECRETS.
            let items = secret_service_search_sync(service, schema, table, SECRET_SEARCH_ALL, nil, &error)
            if error != nil {
                g_list_free_full(items, g_object_unref)
                throw failure("secret_service_search_sync", &error)
            }
            defer { g_list_free_full(items, g_object_unref) }
            var entries: [Entry] = []
            var node = items
            while let current = node {
                node = current.pointee.next
                guard let item = current.pointee.data?.assumingMemoryBound(to: SecretItem.self),
                    let found = secret_item_get_attributes(item)
                else { continue }
                defer { g_hash_table_unref(found) }
                guard let value = g_hash_table_lookup(found, "service") else { continue }
                entries.append(
                    Entry(
                        service: String(cString: value.assumingMemoryBound(to: CChar.self)),
                        locked: secret_item_get_locked(item) != 0))
            }
            return entries
        }
    }

    /// Removes every item with `attributes`.
    /// - Returns: true when one was removed.
    public static func clear(attributes: [String: String]) throws(Failure) -> Bool {
        try withSchema(attributes) { schema, table throws(Failure) in
            var error: UnsafeMutablePointer<GError>?
            let removed = secret_password_clearv_sync(schema, table, nil, &error)
            if error != nil { throw failure("secret_password_clearv_sync", &error) }
            return removed != 0
        }
    }

    // MARK: libsecret's tables

    private static func withSchema<Result>(
        _ values: [String: String],
        _ body: (UnsafePointer<SecretSchema>, OpaquePointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let types = newStringTable()
        // SECRET_SCHEMA_ATTRIBUTE_STRING is 0: a NULL value in the table.
        for name in ["application"] + attributeNames { g_hash_table_insert(types, g_strdup(name), nil) }
        let schema = secret_schema_newv(schemaName, SECRET_SCHEMA_DONT_MATCH_NAME, types)
        g_hash_table_unref(types)
        guard let schema else {
            throw Failure(
                error: GLibError(call: "secret_schema_newv", domain: "", code: 0, message: "cannot make the schema"),
                unreachable: false)
        }
        defer { secret_schema_unref(schema) }
        let table = newStringTable()
        defer { g_hash_table_unref(table) }
        var all = values
        all["application"] = application
        for (name, value) in all {
            g_hash_table_insert(table, g_strdup(name), UnsafeMutableRawPointer(g_strdup(value)))
        }
        return try body(schema, table)
    }

    private static func newStringTable() -> OpaquePointer {
        g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)
    }

    /// A libsecret failure; a D-Bus or GIO error means no Secret Service answered (no bus, no
    /// daemon, none activatable).
    private static func failure(_ call: String, _ error: inout UnsafeMutablePointer<GError>?) -> Failure {
        let glib = GLibError(taking: &error, call: call)
        return Failure(error: glib, unreachable: glib.domain == GLibError.dbusDomain || glib.domain == GLibError.ioDomain)
    }
}
