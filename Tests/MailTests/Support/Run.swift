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

/// A temporary HOME with its own XDG folders, removed at the end of the test.
final class TestHome {
    let folder: URL

    init() throws {
        folder = try TemporaryFolder.make("mail-tests")
        for sub in ["home", "config/sharesheet", "data", "cache", "state", "runtime"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
    }

    deinit { TemporaryFolder(existing: folder).remove() }

    var configHome: URL { folder.appendingPathComponent("config") }
    var dataHome: URL { folder.appendingPathComponent("data") }
    var outbox: URL { dataHome.appendingPathComponent("sharesheet/Outbox") }

    var environment: [String: String] {
        [
            "HOME": folder.appendingPathComponent("home").path, "XDG_CONFIG_HOME": configHome.path,
            "XDG_DATA_HOME": dataHome.path, "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
            "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
            "XDG_RUNTIME_DIR": folder.appendingPathComponent("runtime").path,
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "80",
            "USER": "tester",
        ]
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
