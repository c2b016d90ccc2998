import CGIO
import CSecret
import Foundation

/// libsecret's password lookup, the one place this module calls it.
enum SecretLookup {
    /// The password of the first item whose attributes include `attributes`, or nil when there
    /// is none or the Secret Service cannot be asked.
    static func password(attributes: [String: String]) -> String? {
        // Every attribute is a string: SECRET_SCHEMA_ATTRIBUTE_STRING is 0, a NULL table value.
        let types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, nil)
        for name in attributes.keys { g_hash_table_insert(types, g_strdup(name), nil) }
        // DONT_MATCH_NAME: items stored by secret-tool (another schema name) match too.
        let schema = secret_schema_newv("org.sharesheet.SMTP", SECRET_SCHEMA_DONT_MATCH_NAME, types)
        g_hash_table_unref(types)
        guard let schema else { return nil }
        defer { secret_schema_unref(schema) }
        let values = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)
        defer { g_hash_table_unref(values) }
        for (name, value) in attributes {
            g_hash_table_insert(values, g_strdup(name), UnsafeMutableRawPointer(g_strdup(value)))
        }
        var error: UnsafeMutablePointer<GError>?
        let found = secret_password_lookupv_sync(schema, values, nil, &error)
        if error != nil { g_error_free(error) }
        guard let found else { return nil }
        defer { secret_password_free(found) }
        return String(cString: found)
    }
}
