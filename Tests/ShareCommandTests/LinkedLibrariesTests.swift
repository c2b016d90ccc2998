// What `share` maps before it does anything (BENCHMARKS.md, "Window startup"): libvips,
// poppler-glib and gexiv2 are loaded on first use, and so are the backends' libcurl, libcups,
// GMime, libsoup, libsecret and OpenSSL (CLazyLibraries), so the binary must not name them, nor
// anything only they bring in. Read with the dynamic loader's own list (`ldd`), as a person
// would check it.
import Foundation
import LocalTestSupport
import Testing

@Suite("share's linked libraries")
struct LinkedLibrariesTests {
    /// The shared objects `ldd share` lists, by name.
    private func librariesMappedAtStart() async throws -> [String] {
        let share = try #require(Share.url, "no share binary")
        let listing = try await Command.run("/usr/bin/ldd", [share.path])
        #expect(listing.status == 0, "\(listing.standardError)")
        let loaded = String(decoding: listing.output, as: UTF8.self).split(separator: "\n").compactMap { $0.split(whereSeparator: \.isWhitespace).first.map(String.init) }
        #expect(loaded.count > 20, "ldd listed \(loaded)")
        return loaded
    }

    @Test("share is linked against none of libvips, poppler and gexiv2, nor the NSS, HEIF and exiv2 libraries only they need")
    func heavyLibrariesAreLoadedLater() async throws {
        let loaded = try await librariesMappedAtStart()
        for prefix in ["libvips", "libpoppler", "libnss3", "libheif", "libx265", "libgexiv2", "libexiv2"] {
            #expect(!loaded.contains { $0.contains(prefix) }, "\(prefix) is mapped at start: \(loaded)")
        }
    }

    // A function newly called from one of these libraries and not listed in lazy_functions.h
    // would link its library again: this is the test that says so.
    @Test("share is linked against none of the backends' libraries (libcurl, libcups, GMime, libsoup, libsecret, OpenSSL) nor Kerberos, LDAP, GnuTLS, Avahi or GPGME, which they bring")
    func backendLibrariesAreLoadedOnFirstCall() async throws {
        let loaded = try await librariesMappedAtStart()
        let later = [
            "libcurl", "libcups", "libgmime", "libsoup", "libsecret", "libssl", "libcrypto", "libkrb5", "libldap",
            "libgnutls", "libavahi", "libgpgme", "libgcrypt", "libFoundationNetworking",
        ]
        for prefix in later {
            #expect(!loaded.contains { $0.hasPrefix(prefix) }, "\(prefix) is mapped at start: \(loaded)")
        }
    }

    // The same missing library, seen by a person: a mount namespace of the test's own (it runs
    // as root, as the AirDrop tests' network namespaces do) lays an empty file over libcurl.
    @Test("a backend library that cannot be loaded: share names it and why in one line and exits 69 (EX_UNAVAILABLE)")
    func missingLibraryIsNamed() async throws {
        let share = try #require(Share.url, "no share binary")
        let curl = "/usr/lib/x86_64-linux-gnu/libcurl.so.4"
        try #require(FileManager.default.fileExists(atPath: curl), "no \(curl)")
        try #require(getuid() == 0, "a mount namespace needs root, as the AirDrop tests' network namespaces do")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sharesheet-lazy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let item = folder.appendingPathComponent("note.txt")
        try "hello\n".write(to: item, atomically: true, encoding: .utf8)
        // Port 9 on loopback: were libcurl loaded, the send would fail to connect instead.
        let script = "mount --bind /dev/null \(curl) && exec \"$0\" --activity airdrop --set to=127.0.0.1:9 \"$1\""
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path, "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
                           "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
                           "XDG_STATE_HOME": folder.appendingPathComponent("state").path, "LANG": "C.UTF-8"]
        let run = try await Command.run(
            "/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script, share.path, item.path],
            environment: environment, timeout: 60)
        let error = run.standardError
        #expect(run.status == 69, "\(error)")
        let lines = error.split(separator: "\n")
        #expect(lines.count == 1, "\(error)")
        #expect(error.hasPrefix("share: libcurl.so.4: ") && error.contains("reinstall the package that provides it"), "\(error)")
    }
}
