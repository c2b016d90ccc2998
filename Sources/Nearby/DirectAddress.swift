import Foundation
import ShareSheet

/// A device given by address (`--to HOST[:PORT]`), for networks where multicast is blocked.
public enum DirectAddress {
    /// Splits `HOST`, `HOST:PORT` or `[IPv6]:PORT`; nil when the text is not an address (an alias
    /// or a fingerprint) or its port is not one (see `portProblem(_:)`).
    public static func parse(_ text: String) -> (host: String, port: UInt16)? {
        if case .address(let host, let port) = read(text) { return (host, port) }
        return nil
    }

    /// Why `text`, written as an address with a port, cannot be used: its port is not a number
    /// from 1 to 65535. nil for a usable address and for text that is no address at all.
    public static func portProblem(_ text: String) -> String? {
        guard case .badPort(let port) = read(text) else { return nil }
        return port.isEmpty ? "the port is missing after ':'" : "the port \(port) is not a number from 1 to 65535"
    }

    private enum Reading {
        case address(host: String, port: UInt16)
        case badPort(String)
        case notAnAddress
    }

    private static func read(_ text: String) -> Reading {
        var host = text.trimmingCharacters(in: .whitespaces)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return .notAnAddress }
            let rest = host[host.index(after: close)...]
            let inner = String(host[host.index(after: host.startIndex)..<close])
            var address = in6_addr()
            guard inet_pton(AF_INET6, inner, &address) == 1 else { return .notAnAddress }
            if rest.hasPrefix(":") {
                portText = rest.dropFirst()
            } else if !rest.isEmpty {
                return .notAnAddress
            }
            return port(portText).map { .address(host: inner, port: $0) } ?? .badPort(String(portText ?? ""))
        }
        if let colon = host.lastIndex(of: ":"), host.filter({ $0 == ":" }).count == 1 {
            portText = Substring(String(host[host.index(after: colon)...]))
            host = String(host[..<colon])
        }
        // An IPv4 address, or a host name: letters, digits, dots and dashes with at least one dot
        // or an explicit port.
        let isName = !host.isEmpty && host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
        let looksLikeFingerprint = host.count >= 32 && host.allSatisfy(\.isHexDigit)
        guard IPv4.parse(host) != nil || (isName && !looksLikeFingerprint && (host.contains(".") || portText != nil)) else {
            return .notAnAddress
        }
        return port(portText).map { .address(host: host, port: $0) } ?? .badPort(String(portText ?? ""))
    }

    /// The port in `text` (1–65535), LocalSend's when none is given; nil when it is no port.
    private static func port(_ text: Substring?) -> UInt16? {
        guard let text else { return LocalSend.defaultPort }
        guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = UInt16(text), value > 0 else { return nil }
        return value
    }

    /// Asks the device at `host:port` who it is (`register`), over HTTPS first, learning its
    /// fingerprint from its certificate, then over plain HTTP.
    /// - Throws: `ShareError(.unavailable)` when nothing LocalSend answers there.
    public static func contact(
        host: String, port: UInt16, identity: NearbyIdentity, settings: NearbySettings
    ) throws -> NearbyDevice {
        do {
            return try reach(host: host, port: port, identity: identity, settings: settings)
        } catch let notReached as DeviceNotReached {
            throw notReached.error
        }
    }

    /// `contact`, saying apart a device that is not there now (`DeviceNotReached`: no
    /// connection over either scheme) from one that answered wrongly (`ShareError`).
    static func reach(
        host: String, port: UInt16, identity: NearbyIdentity, settings: NearbySettings
    ) throws -> NearbyDevice {
        let body = try JSONEncoder.localSend().encode(settings.deviceInfo(fingerprint: identity.fingerprint))
        let hostPart = host.contains(":") ? "[\(host)]" : host
        var lastProblem = "no answer"
        var connected = false
        for scheme in ["https", "http"] {
            do {
                let (answer, learned) = try CurlRequest.perform(
                    url: "\(scheme)://\(hostPart):\(port)\(LocalSend.registerPath)", body: .data(body),
                    contentType: "application/json", trust: scheme == "https" ? .learn : .plainHTTP,
                    clientIdentity: (identity.certificate, identity.key), connectTimeout: 5, totalTimeout: 10)
                connected = true
                guard answer.status == 200, var info = try? JSONDecoder().decode(DeviceInfo.self, from: answer.body) else {
                    lastProblem = "answered \(answer.status) to register"
                    continue
                }
                // Over HTTPS the certificate says who answered, whatever the body claims.
                if let learned { info.fingerprint = learned }
                info.protocol = scheme
                info.port = port
                return NearbyDevice(info: info, host: host)
            } catch {
                if !error.isNoConnection { connected = true }
                lastProblem = error.description
            }
        }
        let error = ShareError(.unavailable, "AirDrop: \(host):\(port): no LocalSend device answers there (\(lastProblem))")
        if !connected { throw DeviceNotReached(error: error) }
        throw error
    }
}
