import Foundation

/// The fixed numbers and paths of LocalSend protocol v2.1.
public enum LocalSend {
    /// The multicast group devices announce themselves to.
    public static let multicastGroup = "224.0.0.167"
    /// The UDP port of the multicast group, and the default TCP port of the REST API.
    public static let defaultPort: UInt16 = 53317
    /// The protocol version we speak.
    public static let protocolVersion = "2.1"

    static let registerPath = "/api/localsend/v2/register"
    static let infoPath = "/api/localsend/v2/info"
    static let prepareUploadPath = "/api/localsend/v2/prepare-upload"
    static let uploadPath = "/api/localsend/v2/upload"
    static let cancelPath = "/api/localsend/v2/cancel"
}

/// What a device says about itself: in announcements, `register` bodies and `prepare-upload`'s
/// `info`.
public struct DeviceInfo: Codable, Sendable, Hashable {
    /// The name people gave the device.
    public var alias: String
    /// The protocol version ("2.0", "2.1").
    public var version: String?
    /// The model ("Linux", "iPhone").
    public var deviceModel: String?
    /// mobile, desktop, web, headless or server.
    public var deviceType: String?
    /// SHA-256 of the device's certificate (HTTPS), or a random string (HTTP).
    public var fingerprint: String
    /// The TCP port of its REST API.
    public var port: UInt16?
    /// `https` or `http`.
    public var `protocol`: String?
    /// True when it serves the download API.
    public var download: Bool?
    /// True in an announcement that asks for answers.
    public var announce: Bool?
    /// The v1 spelling of `announce`, still sent for older peers.
    public var announcement: Bool?

    /// Describes a device.
    public init(
        alias: String, deviceModel: String?, deviceType: String?, fingerprint: String, port: UInt16,
        protocol: String, download: Bool = false, announce: Bool? = nil
    ) {
        self.alias = alias
        self.version = LocalSend.protocolVersion
        self.deviceModel = deviceModel
        self.deviceType = deviceType
        self.fingerprint = fingerprint
        self.port = port
        self.protocol = `protocol`
        self.download = download
        self.announce = announce
        self.announcement = announce
    }
}

/// A device found nearby (or typed in), with where to reach it.
public struct NearbyDevice: Sendable, Hashable, CustomStringConvertible {
    /// What the device announced.
    public var info: DeviceInfo
    /// The address its announcement came from (or the typed host).
    public var host: String
    /// The TCP port of its REST API.
    public var port: UInt16
    /// True when it speaks HTTPS (and so can be pinned by its fingerprint).
    public var usesHTTPS: Bool

    /// Describes a reachable device.
    public init(info: DeviceInfo, host: String) {
        self.info = info
        self.host = host
        self.port = info.port ?? LocalSend.defaultPort
        self.usesHTTPS = (info.protocol ?? "https").lowercased() != "http"
    }

    /// The fingerprint that identifies it.
    public var fingerprint: String { info.fingerprint }

    /// `alias (model, type)`: what a device list shows.
    public var description: String {
        let details = [info.deviceModel, info.deviceType].compactMap { $0 }.filter { !$0.isEmpty }
        return details.isEmpty ? info.alias : "\(info.alias) (\(details.joined(separator: ", ")))"
    }

    /// The base URL of its REST API.
    var baseURL: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return "\(usesHTTPS ? "https" : "http")://\(hostPart):\(port)"
    }

    /// How requests to it trust its certificate.
    var trust: ServerTrust { usesHTTPS ? .pinned(info.fingerprint) : .plainHTTP }
}

/// One file offered in `prepare-upload`.
struct FileOffer: Codable, Sendable {
    var id: String
    var fileName: String
    var size: Int64
    var fileType: String
    var sha256: String?
    var preview: String?
    var metadata: Metadata?

    struct Metadata: Codable, Sendable {
        var modified: String?
        var accessed: String?
    }
}

/// The body of `prepare-upload`.
struct PrepareUploadRequest: Codable, Sendable {
    var info: DeviceInfo
    var files: [String: FileOffer]
}

/// The answer to `prepare-upload`: a session and one token per accepted file.
struct PrepareUploadResponse: Codable, Sendable {
    var sessionId: String
    var files: [String: String]
}

extension JSONEncoder {
    /// An encoder for LocalSend bodies: compact, keys sorted, slashes unescaped.
    static func localSend() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
