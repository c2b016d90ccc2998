import Foundation
import ShareSheet
import ShareSheetSystem

/// This device's LocalSend identity: a self-signed certificate and its key, kept 0600 under
/// `$XDG_DATA_HOME/sharesheet/nearby`, whose SHA-256 fingerprint peers know us by.
public struct NearbyIdentity: Sendable {
    /// The certificate (PEM).
    public let certificate: URL
    /// The private key (PEM, mode 0600).
    public let key: URL
    /// SHA-256 of the certificate's DER bytes, uppercase hex.
    public let fingerprint: String

    /// The folder identities live in: `$XDG_DATA_HOME/sharesheet/nearby`.
    public static func folder(_ directories: XDGDirectories = HostEnvironment.process.directories) -> URL {
        directories.shareSheetData.appendingPathComponent("nearby", isDirectory: true)
    }

    /// Reads the identity in `folder`, making one with the `openssl` command when there is none.
    /// - Throws: `ShareError(.ioError)` when it can be neither read nor made.
    public static func loadOrCreate(in folder: URL = folder()) throws -> NearbyIdentity {
        let certificate = folder.appendingPathComponent("certificate.pem")
        let key = folder.appendingPathComponent("key.pem")
        if let identity = read(certificate: certificate, key: key) { return identity }
        try create(certificate: certificate, key: key, in: folder)
        guard let identity = read(certificate: certificate, key: key) else {
            throw ShareError(.ioError, "AirDrop: \(certificate.path): not a certificate")
        }
        return identity
    }

    private static func read(certificate: URL, key: URL) -> NearbyIdentity? {
        guard FileManager.default.fileExists(atPath: key.path),
            let pem = try? String(contentsOf: certificate, encoding: .utf8),
            let fingerprint = Fingerprint.of(pem: pem)
        else { return nil }
        return NearbyIdentity(certificate: certificate, key: key, fingerprint: fingerprint)
    }

    /// Makes a 10-year RSA certificate the way the LocalSend app does, in a private temporary
    /// folder beside the final one, then moves key and certificate into place (key first: a
    /// certificate without its key is never visible).
    private static func create(certificate: URL, key: URL, in folder: URL) throws {
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let scratch = folder.appendingPathComponent(".new-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let newKey = scratch.appendingPathComponent("key.pem")
        let newCertificate = scratch.appendingPathComponent("certificate.pem")
        guard let openssl = Self.openssl() else {
            throw ShareError(
                .unavailable, "AirDrop: cannot make a device certificate: the openssl command is missing (not found in PATH)")
        }
        let log = scratch.appendingPathComponent("openssl.log")
        let process = Process()
        process.executableURL = openssl
        process.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-sha256", "-nodes", "-days", "3650",
            "-subj", "/CN=LocalSend User", "-keyout", newKey.path, "-out", newCertificate.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        do {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil, attributes: [.posixPermissions: 0o600])
            let errors = try FileHandle(forWritingTo: log)
            defer { try? errors.close() }
            process.standardError = errors
            try process.run()
        } catch {
            throw ShareError(
                .ioError, "AirDrop: cannot make a device certificate: cannot start \(openssl.path): \(Self.describe(startFailure: error))")
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let said = (try? String(contentsOf: log, encoding: .utf8))?
                .split(whereSeparator: \.isNewline).last.map { ": \($0)" } ?? ""
            let how = process.terminationReason == .exit ? "exited \(process.terminationStatus)" : "was killed by signal \(process.terminationStatus)"
            throw ShareError(.ioError, "AirDrop: cannot make a device certificate (\(openssl.path) \(how)\(said))")
        }
        chmod(newKey.path, 0o600)
        chmod(newCertificate.path, 0o644)
        guard rename(newKey.path, key.path) == 0, rename(newCertificate.path, certificate.path) == 0 else {
            throw ShareError(.ioError, "AirDrop: \(folder.path): cannot store the device certificate: \(String(cString: strerror(errno)))")
        }
    }
}

extension NearbyIdentity {
    /// The `openssl` program in `PATH`, as a shell would find it; nil when there is none.
    static func openssl(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> URL? {
        for folder in (path ?? "/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = URL(fileURLWithPath: folder.isEmpty ? "." : String(folder)).appendingPathComponent("openssl")
            var info = stat()
            if stat(candidate.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate.path, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    /// Why `Process.run` refused: the system's words for its error, and for a bad descriptor the
    /// usual cause, a descriptor inherited at or above the open-file limit (which Foundation
    /// cannot close in the child).
    static func describe(startFailure error: any Error) -> String {
        let error = error as NSError
        let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
        guard let posix = error.domain == NSPOSIXErrorDomain ? error : underlying?.domain == NSPOSIXErrorDomain ? underlying : nil
        else { return error.localizedDescription }
        let code = Int32(posix.code)
        var text = String(cString: strerror(code))
        if code == EBADF {
            var limit = rlimit()
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            let open = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int($0) }
            if let highest = open.max(), limit.rlim_cur != rlim_t.max, UInt64(highest) >= UInt64(limit.rlim_cur) {
                text += " (descriptor \(highest) is at or above the open-file limit \(limit.rlim_cur))"
            }
        }
        return text
    }
}

/// Who we say we are, and how discovery and sending behave, from configuration and the
/// environment.
public struct NearbySettings: Sendable {
    /// The name peers see.
    public var alias: String
    /// The device type we announce.
    public var deviceType: String = "desktop"
    /// The model we announce.
    public var deviceModel: String = "Linux"
    /// False when discovery is switched off (`[nearby] enabled=false`, `SHARESHEET_NEARBY=off`):
    /// only typed addresses work then.
    public var discoveryEnabled: Bool = true
    /// True to also ask every address of the local subnets (the legacy HTTP scan); off unless
    /// asked for, since it sends a request to every host of the subnet.
    public var subnetScan: Bool = false
    /// How long a device named by alias or fingerprint is looked for before giving up (seconds).
    public var discoveryTimeout: Double = 10
    /// How often a discovery that keeps running announces us again (seconds): receivers answer
    /// an announcement, so a device that comes back is seen within one period. The service
    /// keeps discovery running this way while a queued AirDrop waits for its device.
    public var discoveryPeriod: Double = 30
    /// The TCP port our own server listens on.
    public var port: UInt16 = LocalSend.defaultPort
    /// The UDP port discovery uses.
    public var multicastPort: UInt16 = LocalSend.defaultPort
    /// How many files are uploaded at once.
    public var parallelUploads: Int = 3

    /// Settings from `[nearby]` in the configuration and the environment.
    public init(configuration: Configuration = .empty, environment: [String: String] = HostEnvironment.process.variables) {
        var hostname = [CChar](repeating: 0, count: 256)
        gethostname(&hostname, hostname.count - 1)
        let host = String(decoding: hostname.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        alias = configuration.string("alias", in: "nearby") ?? (host.isEmpty ? "Linux" : host)
        if let type = configuration.string("device-type", in: "nearby") { deviceType = type }
        if configuration.bool("enabled", in: "nearby") == false { discoveryEnabled = false }
        if let value = environment["SHARESHEET_NEARBY"]?.lowercased(), ["off", "0", "false", "no"].contains(value) {
            discoveryEnabled = false
        }
        if configuration.bool("subnet-scan", in: "nearby") == true { subnetScan = true }
        if let seconds = configuration.string("discovery-timeout", in: "nearby").flatMap(Double.init), seconds > 0 {
            discoveryTimeout = seconds
        }
        if let seconds = configuration.string("discovery-period", in: "nearby").flatMap(Double.init), seconds > 0 {
            discoveryPeriod = max(seconds, 0.5)
        }
        if let value = configuration.integer("port", in: "nearby"), let port = UInt16(exactly: value) { self.port = port }
        if let value = configuration.integer("multicast-port", in: "nearby"), let port = UInt16(exactly: value) {
            multicastPort = port
        }
        if let value = configuration.integer("parallel-uploads", in: "nearby"), (1...16).contains(value) {
            parallelUploads = value
        }
    }

    /// What we announce with this identity.
    public func deviceInfo(fingerprint: String, port: UInt16? = nil, announce: Bool? = nil, download: Bool = false) -> DeviceInfo {
        DeviceInfo(
            alias: alias, deviceModel: deviceModel, deviceType: deviceType, fingerprint: fingerprint,
            port: port ?? self.port, protocol: "https", download: download, announce: announce)
    }
}
