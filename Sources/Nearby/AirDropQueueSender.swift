import Foundation
import ShareSheet
import ShareSheetSystem

/// Sends queued AirDrops (`airdrop` entries of the share queue): finds the stored device the
/// way the activity does (its fingerprint or alias through discovery within
/// `[nearby] discovery-timeout`, or its address directly), checks the stored fingerprint, and
/// sends the stored files and texts with `NearbySender`. An alias a pinned device has reaches
/// only that device (`KnownDevices`), and a device sent to is noted there.
///
/// A device still not there throws, and the entry stays queued. A receiver that declines ends
/// the entry (`.declined`). A receiver that asks for a PIN keeps it queued with a reason that
/// says so: PINs are never stored, so only a person can send it, from the sheet.
public struct AirDropQueueSender: QueueSender {
    public var kind: QueuedShare.Kind { .airDrop }

    private let directories: XDGDirectories
    private let environment: [String: String]

    /// A sender reading `[nearby]` from the configuration in `directories` and
    /// `SHARESHEET_NEARBY` from `environment`, with the device identity kept in `directories`.
    public init(directories: XDGDirectories, environment: [String: String]) {
        self.directories = directories
        self.environment = environment
    }

    public func send(_ entry: ShareQueue.Entry, isCancelled: @escaping @Sendable () -> Bool) throws -> QueueSendResult {
        let share = entry.share
        let configuration = try Configuration.load(from: directories)
        let settings = NearbySettings(configuration: configuration, environment: environment)
        let identity = try NearbyIdentity.loadOrCreate(in: NearbyIdentity.folder(directories))
        let payloads = try AirDropQueueing.payloads(of: entry)
        let expected = share.parameters[AirDropQueueing.fingerprintParameter]
        var discovery: NearbyDiscovery?
        if settings.discoveryEnabled, DirectAddress.parse(share.target) == nil {
            let started = NearbyDiscovery(settings: settings, identity: identity) { _ in }
            try started.start()
            discovery = started
        }
        defer { discovery?.stop() }
        let device: NearbyDevice
        do {
            device = try DeviceResolution.resolve(
                share.target, discovery: discovery, settings: settings, identity: identity, expectedFingerprint: expected,
                known: KnownDevices.load(directories: directories), isCancelled: isCancelled)
        } catch let notReached as DeviceNotReached {
            throw ShareError(.temporaryFailure, "\(share.targetTitle) is still not there: \(notReached.error.message)")
        }
        discovery?.stop()
        let sender = NearbySender(device: device, identity: identity, settings: settings)
        let watch = CancelWatch(isCancelled: isCancelled, sender: sender)
        defer { watch.stop() }
        do {
            switch try sender.send(payloads) {
            case .delivered:
                // The share went: a store that cannot be written now does not make it go again.
                _ = try? KnownDevices.note(device, directories: directories)
                return .delivered
            case .declined: return .declined
            }
        } catch let error as ShareError where error.fix == .givePin {
            throw QueueWaitsForPerson(
                reason: "\(share.targetTitle) asks for a PIN: send it again from the share sheet and give the PIN there.",
                error: error)
        } catch let error as ShareError where error.kind == .unavailable && !sender.hasConnected {
            throw ShareError(.temporaryFailure, "\(share.targetTitle) is still not there: \(error.message)")
        }
    }
}

/// Turns the flush's `isCancelled` question into `NearbySender.cancel()`: the sender only
/// stops when told, so a thread asks a few times a second until the send is over.
private final class CancelWatch: @unchecked Sendable {
    private let done = Locked(false)

    init(isCancelled: @escaping @Sendable () -> Bool, sender: NearbySender) {
        let done = self.done
        let thread = Thread {
            while !done.withLock({ $0 }) {
                if isCancelled() {
                    sender.cancel()
                    return
                }
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
        thread.name = "nearby-queue-cancel"
        thread.start()
    }

    func stop() { done.withLock { $0 = true } }
}
