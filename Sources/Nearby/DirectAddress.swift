import Foundation
import ShareSheet

/// A device given by address (`--to HOST[:PORT]`), for networks where multicast is blocked.
public enum DirectAddress {
    /// Splits `HOST`, `HOST:PORT` or `[IPv6]:PORT`; nil when the text is not an address (an alias
    /// or a fingerprint).
    public static func parse(_ text: String) -> (host: String, port: UInt16)? {
        var host = text.trimmingCharacters(in: .whitespaces)
        var port = LocalSend.defaultPort
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            let inner = String(host[host.index(after: host.startIndex)..<close])
            if rest.hasPrefix(":") {
                guard let value = UInt16(rest.dropFirst()) else { return nil }
                port = value
            } else if !rest.isEmpty {
                return nil
            }
            var address = in6_addr()
            return inet_pton(AF_INET6, inner, &address) == 1 ? (inner, port) : nil
        }
        if let colon = host.lastIndex(of: ":"), host.filter({ $0 == ":" }).count == 1 {
            guard let value = UInt16(host[host.index(after: colon)...]), value > 0 else { return nil }
            port = value
            host = String(host[..<colon])
        }
        if IPv4.parse(host) != nil { return (host, port) }
        // A host name: letters, digits, dots and dashes with at least one dot or an explicit port.
        let isName = !host.isEmpty && host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
        let looksLikeFingerprint = host.count >= 32 && host.allSatisfy(\.isHexDigit)
        return isName && !looksLikeFingerprint && (host.contains(".") || text.contains(":")) ? (host, port) : nil
    }

    /// Asks the device at `host:port` who it is (`register`), over HTTPS first, learning its
    /// fingerprint from its certificate, then over plain HTTP.
    /// - Throws: `ShareError(.unavailable)` when nothing LocalSend answers there.
    public static func contact(
        host: String, port: UInt16, identity: NearbyIdentity, settings: NearbySettings
    ) throws -> NearbyDevice {
        let body = try JSONEncoder.localSend().encode(settings.deviceInfo(fingerprint: identity.fingerprint))
        let hostPart = host.contains(":") ? "[\(host)]" : host
        var lastProblem = "no answer"
        for scheme in ["https", "http"] {
            do {
                let (answer, learned) = try CurlRequest.perform(
                    url: "\(scheme)://\(hostPart):\(port)\(LocalSend.registerPath)", body: .data(body),
                    contentType: "application/json", trust: scheme == "https" ? .learn : .plainHTTP,
                    clientIdentity: (identity.certificate, identity.key), connectTimeout: 5, totalTimeout: 10)
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
                lastProblem = error.description
            }
        }
        throw ShareError(.unavailable, "AirDrop: \(host):\(port): no LocalSend device answers there (\(lastProblem))")
    }
}
