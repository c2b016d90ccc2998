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
    @Test("share is linked against none of libvips, poppler and gexiv2, nor the NSS, HEIF and exiv2 libraries only they need")
    func heavyLibrariesAreLoadedLater() async throws {
        let share = try #require(Share.url, "no share binary")
        let listing = try await Command.run("/usr/bin/ldd", [share.path])
        #expect(listing.status == 0, "\(listing.standardError)")
        let loaded = String(decoding: listing.output, as: UTF8.self).split(separator: "\n").compactMap { $0.split(whereSeparator: \.isWhitespace).first.map(String.init) }
        #expect(loaded.count > 20, "ldd listed \(loaded)")
        for prefix in ["libvips", "libpoppler", "libnss3", "libheif", "libx265", "libgexiv2", "libexiv2"] {
            #expect(!loaded.contains { $0.contains(prefix) }, "\(prefix) is mapped at start: \(loaded)")
        }
    }

    // A function newly called from one of these libraries and not listed in lazy_functions.h
    // would link its library again: this is the test that says so.
    @Test("share is linked against none of the backends' libraries (libcurl, libcups, GMime, libsoup, libsecret, OpenSSL) nor Kerberos, LDAP, GnuTLS, Avahi or GPGME, which they bring")
    func backendLibrariesAreLoadedOnFirstCall() async throws {
        let share = try #require(Share.url, "no share binary")
        let listing = try await Command.run("/usr/bin/ldd", [share.path])
        #expect(listing.status == 0, "\(listing.standardError)")
        let loaded = String(decoding: listing.output, as: UTF8.self).split(separator: "\n").compactMap { $0.split(whereSeparator: \.isWhitespace).first.map(String.init) }
        #expect(loaded.count > 20, "ldd listed \(loaded)")
        let later = [
            "libcurl", "libcups", "libgmime", "libsoup", "libsecret", "libssl", "libcrypto", "libkrb5", "libldap",
            "libgnutls", "libavahi", "libgpgme", "libgcrypt", "libFoundationNetworking",
        ]
        for prefix in later {
            #expect(!loaded.contains { $0.hasPrefix(prefix) }, "\(prefix) is mapped at start: \(loaded)")
        }
    }
}
