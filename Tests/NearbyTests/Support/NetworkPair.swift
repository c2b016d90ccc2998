import Foundation
import Testing

/// Two network namespaces joined by a veth pair, with a /30 on the veths and the multicast route
/// on them: a private link where discovery and transfers run without a packet on any other
/// interface. Deleted (with everything in them) by `remove()`.
final class NetworkPair: @unchecked Sendable {
    /// The namespace our `share` runs in, and its address.
    let ours: String
    let ourAddress = "10.253.7.1"
    /// The namespace the peer runs in, and its address.
    let theirs: String
    let theirAddress = "10.253.7.2"

    private static let counter = LockedCounter()

    init() throws {
        let tag = "\(getpid() % 100_000)x\(Self.counter.next())"
        ours = "shs-\(tag)-a"
        theirs = "shs-\(tag)-b"
        do {
            try Self.ip(["netns", "add", ours])
            try Self.ip(["netns", "add", theirs])
            // Made inside our namespace with its peer end created directly in theirs: neither end
            // ever exists in the test machine's own namespace.
            try Self.ip(["-n", ours, "link", "add", "veth0", "type", "veth", "peer", "name", "veth0", "netns", theirs])
            for (namespace, address) in [(ours, ourAddress), (theirs, theirAddress)] {
                try Self.ip(["-n", namespace, "link", "set", "lo", "up"])
                try Self.ip(["-n", namespace, "addr", "add", "\(address)/30", "dev", "veth0"])
                try Self.ip(["-n", namespace, "link", "set", "veth0", "up"])
                try Self.ip(["-n", namespace, "route", "add", "224.0.0.0/4", "dev", "veth0"])
            }
        } catch {
            remove()
            throw error
        }
    }

    /// Deletes both namespaces (and the veth pair with them).
    func remove() {
        for namespace in [ours, theirs] { try? Self.ip(["netns", "del", namespace]) }
    }

    /// Runs `ip` with arguments; throws with its error output when it fails.
    static func ip(_ arguments: [String]) throws {
        let result = try Command.run("/usr/sbin/ip", arguments)
        guard result.status == 0 else {
            throw CommandFailure(description: "ip \(arguments.joined(separator: " ")): \(result.standardError)")
        }
    }
}

final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

struct CommandFailure: Error, CustomStringConvertible {
    var description: String
}

/// Runs programs to completion and collects what they printed.
enum Command {
    struct Result: CustomStringConvertible {
        var status: Int32
        var standardOutput: String
        var standardError: String
        var description: String { "exit \(status)\n--- stdout\n\(standardOutput)\n--- stderr\n\(standardError)" }
    }

    static func run(_ program: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outputData = ResultBox<Data>()
        let reader = Thread {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            outputData.set(data)
        }
        reader.start()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while outputData.get() == nil { Thread.sleep(forTimeInterval: 0.01) }
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData.get() ?? Data(), as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }
}

final class ResultBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?
    init(_ value: Value?) { self.value = value }
    init() { value = nil }
    func set(_ newValue: Value) {
        lock.lock()
        value = newValue
        lock.unlock()
    }
    func get() -> Value? {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
