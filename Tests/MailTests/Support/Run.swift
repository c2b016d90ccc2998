import Foundation
import LocalTestSupport
import Testing

/// Runs the built `share` in a `TestHome`.
enum Run {
    /// Runs the built `share` with `arguments` in `home`'s XDG folders.
    static func share(_ arguments: [String], home: TestHome, extraEnvironment: [String: String] = [:]) throws -> Command.Result {
        let binary = try #require(Share.url, "the share executable was not found next to the test bundle")
        return try Command.run(binary.path, arguments, environment: home.environment.merging(extraEnvironment) { $1 }, in: home.folder)
    }
}

/// A test's folder with a private home in it (``TemporaryHome/environment(home:)``'s layout,
/// under `home/`), removed at the end of the test.
final class TestHome {
    /// The test's folder: `home/`, and the files and peers the test makes beside it.
    let folder: URL

    init() throws {
        folder = try TemporaryFolder.make("mail-tests")
        try FileManager.default.createDirectory(at: configHome.appendingPathComponent("sharesheet"), withIntermediateDirectories: true)
        // XDG_RUNTIME_DIR, private as a session's is (gnome-keyring checks).
        try FileManager.default.createDirectory(at: home.appendingPathComponent("runtime"), withIntermediateDirectories: true)
        chmod(home.appendingPathComponent("runtime").path, 0o700)
    }

    deinit { TemporaryFolder(existing: folder).remove() }

    var home: URL { folder.appendingPathComponent("home") }
    var configHome: URL { home.appendingPathComponent("config") }
    var dataHome: URL { home.appendingPathComponent("data") }
    var outbox: URL { dataHome.appendingPathComponent("sharesheet/Outbox") }

    /// The shared private-home environment, with only /usr/bin and /bin on PATH and a user name.
    var environment: [String: String] {
        TemporaryHome.environment(home: home).merging(["PATH": "/usr/bin:/bin", "USER": "tester"]) { $1 }
    }

    /// Writes the configuration file.
    func configure(_ text: String) throws {
        try text.write(to: configHome.appendingPathComponent("sharesheet/config"), atomically: true, encoding: .utf8)
    }

    /// Files in a Maildir subfolder of the outbox.
    func outboxFiles(_ sub: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: outbox.appendingPathComponent(sub).path)) ?? []).sorted()
    }

    /// Writes a file of `size` random bytes from /dev/urandom.
    func randomFile(_ name: String, size: Int) throws -> URL {
        let url = folder.appendingPathComponent(name)
        let source = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        defer { try? source.close() }
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let target = try FileHandle(forWritingTo: url)
        defer { try? target.close() }
        var left = size
        while left > 0 {
            let chunk = min(left, 1 << 20)
            try target.write(contentsOf: source.readData(ofLength: chunk))
            left -= chunk
        }
        return url
    }
}

/// SHA-256 of a file, by the coreutils tool (independent of the code under test).
func sha256(of file: URL) throws -> String {
    let output = try Command.run("/usr/bin/sha256sum", [file.path])
    return String(output.standardOutput.prefix(64))
}

/// A throwaway CA and a certificate for localhost/127.0.0.1 signed by it, made with openssl.
struct TestCertificates {
    let ca: URL
    let certificate: URL
    let key: URL

    init(in folder: URL) throws {
        let base = folder.appendingPathComponent("tls-\(UUID().uuidString.prefix(6))", isDirectory: true)
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        ca = base.appendingPathComponent("ca.pem")
        certificate = base.appendingPathComponent("server.pem")
        key = base.appendingPathComponent("server.key")
        let caKey = base.appendingPathComponent("ca.key")
        let request = base.appendingPathComponent("server.csr")
        let extensions = base.appendingPathComponent("ext.cnf")
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(to: extensions, atomically: true, encoding: .utf8)
        let steps: [[String]] = [
            ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", caKey.path,
             "-out", ca.path, "-days", "2", "-subj", "/CN=ShareSheet Test CA"],
            ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key.path, "-out",
             request.path, "-subj", "/CN=localhost"],
            ["x509", "-req", "-in", request.path, "-CA", ca.path, "-CAkey", caKey.path, "-CAcreateserial", "-out",
             certificate.path, "-days", "2", "-extfile", extensions.path],
        ]
        for step in steps {
            let output = try Command.run("/usr/bin/openssl", step)
            guard output.status == 0 else { throw PeerError("openssl \(step[0]) failed: \(output.standardError)") }
        }
    }
}
