import Foundation
import ShareSheet

/// An IPv4 interface that can carry multicast.
struct MulticastInterface: Sendable, Hashable {
    var name: String
    /// Its address, network byte order.
    var address: in_addr_t
    /// Its netmask, network byte order.
    var netmask: in_addr_t

    var addressText: String { IPv4.text(address) }

    /// Every interface that is up, not loopback, and does multicast.
    static func all() -> [MulticastInterface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var result: [MulticastInterface] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0,
                flags & Int32(IFF_MULTICAST) != 0
            else { continue }
            let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            let mask =
                entry.pointee.ifa_netmask?.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
                ?? UInt32(0xFFFF_FF00).bigEndian
            result.append(MulticastInterface(name: String(cString: entry.pointee.ifa_name), address: ipv4, netmask: mask))
        }
        return result
    }
}

/// IPv4 address helpers.
enum IPv4 {
    static func text(_ address: in_addr_t) -> String {
        var value = in_addr(s_addr: address)
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        inet_ntop(AF_INET, &value, &buffer, socklen_t(buffer.count))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func parse(_ text: String) -> in_addr_t? {
        var value = in_addr()
        return inet_pton(AF_INET, text, &value) == 1 ? value.s_addr : nil
    }
}

/// A UDP socket joined to the LocalSend multicast group on every multicast interface.
final class MulticastSocket: @unchecked Sendable {
    private let descriptor: Int32
    private let group: in_addr_t
    private let port: UInt16
    let interfaces: [MulticastInterface]

    /// Opens the socket on `port` and joins `group` on every multicast interface.
    /// - Throws: `ShareError(.unavailable)` when the port cannot be used.
    init(group: String, port: UInt16) throws {
        guard let groupAddress = IPv4.parse(group) else { throw ShareError(.usage, "AirDrop: \(group): not an IPv4 group") }
        self.group = groupAddress
        self.port = port
        descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw Self.error("cannot open a UDP socket") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &yes, socklen_t(MemoryLayout<Int32>.size))
        var ttl: UInt8 = 1
        setsockopt(descriptor, Int32(IPPROTO_IP), IP_MULTICAST_TTL, &ttl, 1)
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0)
        let socketDescriptor = descriptor
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let error = Self.error("cannot listen on UDP port \(port)")
            close(descriptor)
            throw error
        }
        interfaces = MulticastInterface.all()
        for interface in interfaces {
            var request = ip_mreq(imr_multiaddr: in_addr(s_addr: groupAddress), imr_interface: in_addr(s_addr: interface.address))
            setsockopt(descriptor, Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, &request, socklen_t(MemoryLayout<ip_mreq>.size))
        }
    }

    deinit { close(descriptor) }

    /// Sends `payload` to the group on every interface.
    func send(_ payload: Data) {
        var destination = sockaddr_in()
        destination.sin_family = sa_family_t(AF_INET)
        destination.sin_port = port.bigEndian
        destination.sin_addr.s_addr = group
        for interface in interfaces {
            var outgoing = in_addr(s_addr: interface.address)
            setsockopt(descriptor, Int32(IPPROTO_IP), IP_MULTICAST_IF, &outgoing, socklen_t(MemoryLayout<in_addr>.size))
            payload.withUnsafeBytes { bytes in
                withUnsafePointer(to: &destination) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        _ = sendto(descriptor, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
        }
    }

    /// Waits up to 200 ms for one datagram; returns it with the sender's address.
    func receive() -> (Data, String)? {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var source = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = withUnsafeMutablePointer(to: &source) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(descriptor, &buffer, buffer.count, 0, $0, &length) }
        }
        guard count > 0 else { return nil }
        return (Data(buffer[0..<count]), IPv4.text(source.sin_addr.s_addr))
    }

    private static func error(_ message: String) -> ShareError {
        ShareError(.unavailable, "AirDrop: \(message): \(String(cString: strerror(errno)))")
    }
}
