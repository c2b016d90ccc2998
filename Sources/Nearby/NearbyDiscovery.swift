import Foundation
import ShareSheet

/// Finds LocalSend devices nearby: announces us to the multicast group, listens for other
/// devices' announcements and answers, and (only when asked) probes every address of the local
/// subnets the legacy way.
///
/// Devices are reported once each (again when what they say changes) through `onDevice`, on a
/// background thread. Nothing is sent before `start()`, and nothing after `stop()`.
public final class NearbyDiscovery: @unchecked Sendable {
    private let settings: NearbySettings
    private let identity: NearbyIdentity
    private let ourInfo: DeviceInfo
    private let answersAnnouncements: Bool
    private let onDevice: @Sendable (NearbyDevice) -> Void
    private let state = Locked(State())
    private var socket: MulticastSocket?

    private struct State {
        var devices: [String: NearbyDevice] = [:]
        /// When each device (by fingerprint) was last heard from: announced, answered or probed.
        var lastSeen: [String: Date] = [:]
        var stopped = false
        var started = false
    }

    /// Prepares discovery.
    /// - Parameters:
    ///   - settings: the device name, port and multicast group to use.
    ///   - identity: this device's identity: its fingerprint is what it announces.
    ///   - serverPort: the port of our own LocalSend server, when one runs (receivers); peers
    ///     answer announcements there. Without one they answer by multicast.
    ///   - answersAnnouncements: true to answer other devices' announcements (`register`).
    ///   - onDevice: called for each device found, on a background thread.
    public init(
        settings: NearbySettings, identity: NearbyIdentity, serverPort: UInt16? = nil, answersAnnouncements: Bool = true,
        onDevice: @escaping @Sendable (NearbyDevice) -> Void
    ) {
        self.settings = settings
        self.identity = identity
        self.ourInfo = settings.deviceInfo(fingerprint: identity.fingerprint, port: serverPort, download: false)
        self.answersAnnouncements = answersAnnouncements
        self.onDevice = onDevice
    }

    /// Every device found so far.
    public var devices: [NearbyDevice] { state.withLock { Array($0.devices.values) } }

    /// Starts announcing and listening on a background thread.
    /// - Throws: `ShareError(.unavailable)` when the multicast port cannot be used.
    public func start() throws {
        guard state.withLock({ state -> Bool in
            defer { state.started = true }
            return !state.started && !state.stopped
        }) else { return }
        let socket = try MulticastSocket(group: LocalSend.multicastGroup, port: settings.multicastPort)
        self.socket = socket
        let thread = Thread { [self] in listen(on: socket) }
        thread.name = "nearby-discovery"
        thread.start()
        if settings.subnetScan {
            let scan = Thread { [self] in scanSubnets(socket.interfaces) }
            scan.name = "nearby-subnet-scan"
            scan.start()
        }
    }

    /// Stops announcing and listening; no callback comes after it returns (but one running now
    /// may finish).
    public func stop() {
        state.withLock { $0.stopped = true }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    /// Announces us now (discovery also announces by itself at start, as the LocalSend app does).
    public func announce() {
        guard let socket, !isStopped else { return }
        var info = ourInfo
        info.announce = true
        info.announcement = true
        if let payload = try? JSONEncoder.localSend().encode(info) { socket.send(payload) }
    }

    /// Waits until a device whose fingerprint, alias or address is `name` is found, or `timeout`
    /// seconds pass.
    public func waitForDevice(named name: String, timeout: Double, isCancelled: () -> Bool = { false }) -> NearbyDevice? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, !isCancelled() {
            if let device = device(named: name) { return device }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return device(named: name)
    }

    /// The device found so far whose fingerprint, alias or address is `name`, heard from at
    /// `since` or later when given: a device heard from recently is still nearby.
    public func device(named name: String, heardSince since: Date? = nil) -> NearbyDevice? {
        let (devices, lastSeen) = state.withLock { (Array($0.devices.values), $0.lastSeen) }
        let found = since.map { since in devices.filter { (lastSeen[$0.fingerprint] ?? .distantPast) >= since } } ?? devices
        if let exact = found.first(where: { $0.fingerprint.caseInsensitiveCompare(name) == .orderedSame }) { return exact }
        if let alias = found.first(where: { $0.info.alias == name }) { return alias }
        if let alias = found.first(where: { $0.info.alias.caseInsensitiveCompare(name) == .orderedSame }) { return alias }
        return found.first { $0.host == name }
    }

    private func listen(on socket: MulticastSocket) {
        // The LocalSend app announces at once, then after 0.5 s and 2 s; so do we. A discovery
        // kept running (the service waiting for a queued AirDrop's device) announces again every
        // `discoveryPeriod`: receivers answer announcements, so a device that comes back is
        // heard from within one period even when its own announcement was missed.
        let start = Date()
        var pending: [Double] = [0, 0.5, 2]
        var nextPeriodic = 2 + settings.discoveryPeriod
        while !isStopped {
            let elapsed = Date().timeIntervalSince(start)
            while let next = pending.first, next <= elapsed {
                pending.removeFirst()
                announce()
            }
            if elapsed >= nextPeriodic {
                nextPeriodic += settings.discoveryPeriod
                announce()
            }
            guard let (payload, sender) = socket.receive() else { continue }
            guard let info = try? JSONDecoder().decode(DeviceInfo.self, from: payload),
                info.fingerprint != identity.fingerprint, !info.fingerprint.isEmpty
            else { continue }
            let device = NearbyDevice(info: info, host: sender)
            record(device)
            if answersAnnouncements, info.announce == true || info.announcement == true {
                let responder = Thread { [self] in answer(device, socket: socket) }
                responder.start()
            }
        }
    }

    /// Keeps a device and reports it when it is new or changed.
    func record(_ device: NearbyDevice) {
        let isNew = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.lastSeen[device.fingerprint] = Date()
            var comparable = device.info
            comparable.announce = nil
            comparable.announcement = nil
            if let known = state.devices[device.fingerprint] {
                var knownInfo = known.info
                knownInfo.announce = nil
                knownInfo.announcement = nil
                if knownInfo == comparable, known.host == device.host { return false }
            }
            var stored = device
            stored.info = comparable
            state.devices[device.fingerprint] = stored
            return true
        }
        if isNew { onDevice(device) }
    }

    /// Answers an announcement with `register` (HTTPS pinned to the announced fingerprint), or by
    /// multicast when that fails, as the protocol says.
    private func answer(_ device: NearbyDevice, socket: MulticastSocket) {
        guard !isStopped, let body = try? JSONEncoder.localSend().encode(ourInfo) else { return }
        do {
            let (answer, _) = try CurlRequest.perform(
                url: device.baseURL + LocalSend.registerPath, body: .data(body), contentType: "application/json",
                trust: device.trust, clientIdentity: (identity.certificate, identity.key), connectTimeout: 2, totalTimeout: 4)
            if answer.status == 200, let info = try? JSONDecoder().decode(DeviceInfo.self, from: answer.body),
                info.fingerprint == device.fingerprint
            {
                return
            }
        } catch {}
        var reply = ourInfo
        reply.announce = false
        reply.announcement = false
        if !isStopped, let payload = try? JSONEncoder.localSend().encode(reply) { socket.send(payload) }
    }

    /// The legacy discovery: `register` to every address of each interface's subnet (at most
    /// 254 per interface), learning each answering device's fingerprint from its certificate.
    private func scanSubnets(_ interfaces: [MulticastInterface]) {
        guard let body = try? JSONEncoder.localSend().encode(ourInfo) else { return }
        var targets: [String] = []
        for interface in interfaces {
            let mask = UInt32(bigEndian: interface.netmask)
            let network = UInt32(bigEndian: interface.address) & mask
            let hostCount = min(Int(~mask), 255)
            guard hostCount >= 2 else { continue }
            for offset in 1..<hostCount {
                let address = network + UInt32(offset)
                if address == UInt32(bigEndian: interface.address) { continue }
                targets.append(IPv4.text(address.bigEndian))
            }
        }
        let queue = Locked(targets[...])
        let group = DispatchGroup()
        for _ in 0..<min(16, targets.count) {
            group.enter()
            let worker = Thread { [self] in
                defer { group.leave() }
                while !isStopped, let host = queue.withLock({ $0.popFirst() }) {
                    probe(host, body: body)
                }
            }
            worker.start()
        }
        group.wait()
    }

    private func probe(_ host: String, body: Data) {
        for scheme in ["https", "http"] {
            let url = "\(scheme)://\(host):\(LocalSend.defaultPort)\(LocalSend.registerPath)"
            guard
                let (answer, learned) = try? CurlRequest.perform(
                    url: url, body: .data(body), contentType: "application/json", trust: scheme == "https" ? .learn : .plainHTTP,
                    connectTimeout: 1, totalTimeout: 2),
                answer.status == 200, var info = try? JSONDecoder().decode(DeviceInfo.self, from: answer.body)
            else { continue }
            // Over HTTPS the certificate, not the body, says who answered.
            if let learned { info.fingerprint = learned }
            info.protocol = scheme
            if info.fingerprint != identity.fingerprint { record(NearbyDevice(info: info, host: host)) }
            return
        }
    }
}
