import CGIO
import Foundation
import GLibErrors
import Testing

@Suite("GLibError: one error type for every GLib, GIO and GDBus failure")
struct GLibErrorTests {
    @Test("reading a missing file through GIO gives G_IO_ERROR_NOT_FOUND in g-io-error-quark, with the call")
    func missingFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)").path
        let file = g_file_new_for_path(path)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        var contents: UnsafeMutablePointer<CChar>?
        var length: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        let loaded = g_file_load_contents(file, nil, &contents, &length, nil, &error)
        #expect(loaded == 0)
        let failure = GLibError(taking: &error, call: "g_file_load_contents")
        #expect(error == nil, "taking the error frees it and clears the pointer")
        #expect(failure.call == "g_file_load_contents")
        #expect(failure.domain == "g-io-error-quark")
        #expect(failure.domain == GLibError.ioDomain)
        #expect(failure.code == Int32(G_IO_ERROR_NOT_FOUND.rawValue))
        #expect(failure.isIO(G_IO_ERROR_NOT_FOUND))
        #expect(failure.message.contains(path), "\(failure.message)")
        #expect(failure.remoteName == nil)
        #expect(failure.description == "g_file_load_contents: \(failure.message)")
    }

    @Test("a key file that does not parse keeps GLib's key-file domain and code")
    func keyFileDomain() throws {
        let keyFile = g_key_file_new()
        defer { g_key_file_free(keyFile) }
        var error: UnsafeMutablePointer<GError>?
        let text = "not a group line\n"
        let loaded = g_key_file_load_from_data(keyFile, text, gsize(text.utf8.count), G_KEY_FILE_NONE, &error)
        #expect(loaded == 0)
        let failure = GLibError(taking: &error, call: "g_key_file_load_from_data")
        #expect(failure.domain == "g-key-file-error-quark")
        #expect(failure.code == Int32(G_KEY_FILE_ERROR_PARSE.rawValue))
    }

    @Test("a D-Bus error from the bus keeps its name apart and drops GDBus's prefix from the message")
    func remoteError() throws {
        var error = g_dbus_error_new_for_dbus_error("org.freedesktop.DBus.Error.ServiceUnknown", "The name is not activatable")
        let failure = GLibError(taking: &error, call: "g_dbus_connection_call_sync")
        #expect(failure.remoteName == "org.freedesktop.DBus.Error.ServiceUnknown")
        #expect(failure.domain == GLibError.dbusDomain)
        #expect(failure.isDBus(G_DBUS_ERROR_SERVICE_UNKNOWN))
        #expect(failure.message == "The name is not activatable")
    }

    @Test("a call that failed without an error still names the call")
    func noError() {
        var error: UnsafeMutablePointer<GError>?
        let failure = GLibError(taking: &error, call: "g_bus_get_sync")
        #expect(failure.domain.isEmpty)
        #expect(failure.message == "g_bus_get_sync failed")
    }
}
