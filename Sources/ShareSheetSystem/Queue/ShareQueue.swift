import Foundation
import ShareSheet

/// The share queue: shares that leave the machine and wait to be sent (SPEC §14), one folder
/// each under `$XDG_DATA_HOME/sharesheet/Queue`.
///
/// It works like a Maildir, with folders for entries: an entry is built in `tmp/` (its items
/// copied and flushed to disk, then `share.json`) and renamed into `new/` only when whole, so
/// the queue holds whole shares or nothing. To send one, a process locks it and renames it into
/// `sending/`: two senders never take the same share, and a share whose sender died stays in
/// `sending/` as *interrupted* (it may have arrived) instead of going again by itself; `retry`
/// puts it back in the queue and the entry then says it may arrive twice.
public struct ShareQueue: Sendable {
    /// The queue's folder.
    public let folder: URL

    /// Where an entry is.
    public enum State: String, Sendable, Codable {
        /// In `new/`, waiting.
        case queued
        /// In `sending/`, with its sender running.
        case sending
        /// In `sending/`, its sender gone mid-send: it may or may not have arrived.
        case interrupted
    }

    /// One stored share.
    public struct Entry: Sendable {
        public var share: QueuedShare
        public var state: State
        /// The entry's folder.
        public var folder: URL
        /// The URL of a file item's stored copy.
        public func url(of item: QueuedShare.Item) -> URL? {
            item.file.map { folder.appendingPathComponent("items", isDirectory: true).appendingPathComponent($0) }
        }
        /// The bytes of every stored file.
        public var size: Int64 {
            share.items.compactMap(url(of:)).reduce(0) { total, url in
                total + ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64) ?? 0)
            }
        }
    }

    /// What a queued share is made of when it is queued: files are copied into the entry.
    public enum Source: Sendable {
        /// A file, copied under `name` (its own name when nil).
        case file(URL, name: String? = nil, mimeType: String? = nil)
        /// Bytes, stored under `name`.
        case data(Data, name: String, mimeType: String? = nil)
        /// Text, kept in `share.json`.
        case text(String)
    }

    public init(folder: URL) { self.folder = folder }

    /// The user's queue: `$XDG_DATA_HOME/sharesheet/Queue`.
    public init(directories: XDGDirectories = HostEnvironment.process.directories) {
        folder = directories.shareSheetData.appendingPathComponent("Queue", isDirectory: true)
    }

    var tmp: URL { folder.appendingPathComponent("tmp", isDirectory: true) }
    var new: URL { folder.appendingPathComponent("new", isDirectory: true) }
    var sending: URL { folder.appendingPathComponent("sending", isDirectory: true) }

    // MARK: Queueing

    /// Queues `share` with `sources` as its items: copies them into a new entry and makes it
    /// visible at once, whole. The share's `items` are replaced by the stored ones.
    /// - Returns: the entry, queued.
    @discardableResult
    public func add(_ share: QueuedShare, sources: [Source]) throws -> Entry {
        try prepare()
        removeAbandoned()
        var share = share
        share.id = Self.uniqueID()
        share.created = Date()
        let building = tmp.appendingPathComponent(share.id, isDirectory: true)
        let items = building.appendingPathComponent("items", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: items, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            var stored: [QueuedShare.Item] = []
            var used: Set<String> = []
            for source in sources {
                switch source {
                case .text(let text):
                    stored.append(.text(text))
                case .file(let url, let name, let mimeType):
                    let name = Self.unique(Self.safeName(name ?? url.lastPathComponent), in: &used)
                    try Self.copy(url, to: items.appendingPathComponent(name))
                    stored.append(.file(name, mimeType: mimeType))
                case .data(let data, let name, let mimeType):
                    let name = Self.unique(Self.safeName(name), in: &used)
                    try Self.store(data, to: items.appendingPathComponent(name))
                    stored.append(.file(name, mimeType: mimeType))
                }
            }
            share.items = stored
            Self.syncFolder(items)
            try Self.store(try Self.encoder.encode(share), to: building.appendingPathComponent("share.json"))
            guard FileManager.default.createFile(atPath: building.appendingPathComponent("lock").path, contents: nil) else {
                throw ShareError(.ioError, "cannot create its lock file")
            }
            Self.syncFolder(building)
        } catch {
            try? FileManager.default.removeItem(at: building)
            throw Self.ioError("cannot queue the share to \(share.targetTitle)", error)
        }
        let target = new.appendingPathComponent(share.id, isDirectory: true)
        guard rename(building.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: building)
            throw ShareError(.ioError, "queue: cannot queue the share to \(share.targetTitle): \(reason)")
        }
        Self.syncFolder(new)
        return Entry(share: share, state: .queued, folder: target)
    }

    // MARK: Reading

    /// Every entry, oldest first. An entry whose `share.json` cannot be read is left out.
    public func entries() -> [Entry] {
        var found: [Entry] = []
        for (folder, state) in [(new, State.queued), (sending, State.sending)] {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }
            for name in names {
                let entryFolder = folder.appendingPathComponent(name, isDirectory: true)
                guard let share = Self.readShare(entryFolder) else { continue }
                var state = state
                if state == .sending, !Self.isLocked(entryFolder) { state = .interrupted }
                found.append(Entry(share: share, state: state, folder: entryFolder))
            }
        }
        return found.sorted { ($0.share.created, $0.share.id) < ($1.share.created, $1.share.id) }
    }

    /// The entry `id`, or a not-found error naming it.
    public func entry(_ id: String) throws -> Entry {
        guard let entry = entries().first(where: { $0.share.id == id }) else {
            throw ShareError(.noInput, "queue: no queued share \(id)")
        }
        return entry
    }

    // MARK: Sending

    /// A share taken out of the queue for sending; its lock is held until `finish` or `release`.
    public final class Claim: @unchecked Sendable {
        public let entry: Entry
        let descriptor: Int32
        init(entry: Entry, descriptor: Int32) {
            self.entry = entry
            self.descriptor = descriptor
        }
        deinit { close(descriptor) }
    }

    /// Takes the queued share `id` for sending: locks it and moves it into `sending/`.
    /// - Returns: nil when it is not queued (sent, removed, or another process took it).
    public func claim(_ id: String) throws -> Claim? {
        let source = new.appendingPathComponent(id, isDirectory: true)
        let descriptor = open(source.appendingPathComponent("lock").path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw ShareError(.ioError, "queue: \(id): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        do { try prepare() } catch {
            close(descriptor)
            throw error
        }
        let target = sending.appendingPathComponent(id, isDirectory: true)
        guard rename(source.path, target.path) == 0 else {
            let code = errno
            close(descriptor)
            if code == ENOENT { return nil }
            throw ShareError(.ioError, "queue: \(id): cannot move to sending/: \(String(cString: strerror(code)))")
        }
        Self.syncFolder(sending)
        guard var share = Self.readShare(target) else {
            close(descriptor)
            throw ShareError(.badData, "queue: \(id): its share.json cannot be read")
        }
        share.attempts += 1
        try? Self.store(try Self.encoder.encode(share), to: target.appendingPathComponent("share.json"))
        return Claim(entry: Entry(share: share, state: .sending, folder: target), descriptor: descriptor)
    }

    /// Sent: the entry leaves the queue.
    public func finish(_ claim: Claim) {
        discard(claim.entry.folder)
    }

    /// Not sent: the entry goes back into the queue with why.
    public func release(_ claim: Claim, reason: String? = nil, error: String? = nil) {
        var share = claim.entry.share
        if let reason { share.reason = reason }
        share.lastError = error
        if let data = try? Self.encoder.encode(share) {
            try? Self.store(data, to: claim.entry.folder.appendingPathComponent("share.json"))
        }
        let target = new.appendingPathComponent(share.id, isDirectory: true)
        if rename(claim.entry.folder.path, target.path) == 0 { Self.syncFolder(new) }
    }

    // MARK: Managing

    /// Puts an interrupted share back in the queue; it is marked as one that may arrive twice.
    /// A queued share is left as it is.
    public func retry(_ id: String) throws {
        let entry = try entry(id)
        switch entry.state {
        case .queued: return
        case .sending: throw ShareError(.temporaryFailure, "queue: \(id) is being sent right now")
        case .interrupted:
            var share = entry.share
            share.mayArriveTwice = true
            try Self.store(try Self.encoder.encode(share), to: entry.folder.appendingPathComponent("share.json"))
            let target = new.appendingPathComponent(id, isDirectory: true)
            guard rename(entry.folder.path, target.path) == 0 else {
                throw ShareError(.ioError, "queue: \(id): cannot queue it again: \(String(cString: strerror(errno)))")
            }
            Self.syncFolder(new)
        }
    }

    /// Deletes a queued or interrupted share with its items.
    public func remove(_ id: String) throws {
        let entry = try entry(id)
        if entry.state == .sending { throw ShareError(.temporaryFailure, "queue: \(id) is being sent right now") }
        discard(entry.folder)
    }

    // MARK: Files

    /// Creates `tmp/`, `new/` and `sending/` when missing.
    func prepare() throws {
        for folder in [tmp, new, sending] {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw Self.ioError("cannot create \(folder.path)", error)
            }
        }
    }

    /// Removes an entry: first out of sight (renamed into `tmp/`, one atomic step), then its files.
    private func discard(_ entry: URL) {
        let doomed = tmp.appendingPathComponent("removing-\(getpid())-\(UInt32.random(in: 0...UInt32.max))", isDirectory: true)
        if rename(entry.path, doomed.path) == 0 {
            Self.syncFolder(entry.deletingLastPathComponent())
            try? FileManager.default.removeItem(at: doomed)
        } else {
            try? FileManager.default.removeItem(at: entry)
        }
    }

    /// Removes what a process killed while queueing or removing left in `tmp/`: the names carry
    /// the writer's PID, and a folder whose writer no longer runs will never be finished.
    public func removeAbandoned() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []
        for name in names {
            guard let pid = Self.writer(of: name), Self.isGone(pid) else { continue }
            try? FileManager.default.removeItem(at: tmp.appendingPathComponent(name))
        }
    }

    /// A fresh id: `q` + time + writer PID + random part (`q1733356800-4242-9f3a1c0d`).
    static func uniqueID() -> String {
        "q\(Int(Date().timeIntervalSince1970))-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }

    /// The PID in an id or in a `removing-PID-…` name.
    static func writer(of name: String) -> pid_t? {
        let parts = name.split(separator: "-")
        guard parts.count >= 3 else { return nil }
        return pid_t(parts[1]).flatMap { $0 > 0 ? $0 : nil }
    }

    static func isGone(_ pid: pid_t) -> Bool { kill(pid, 0) != 0 && errno == ESRCH }

    /// True while a sender holds the entry's lock.
    static func isLocked(_ entry: URL) -> Bool {
        let descriptor = open(entry.appendingPathComponent("lock").path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return false
        }
        return true
    }

    static func readShare(_ entry: URL) -> QueuedShare? {
        guard let data = FileManager.default.contents(atPath: entry.appendingPathComponent("share.json").path) else { return nil }
        return try? decoder.decode(QueuedShare.self, from: data)
    }

    /// A file name that stays inside `items/`: no slash, not empty, not a dot name.
    static func safeName(_ name: String) -> String {
        let cleaned = name.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "\0", with: "")
        if cleaned.isEmpty || cleaned == "." || cleaned == ".." { return "item" }
        return cleaned.hasPrefix(".") ? "_" + cleaned.dropFirst() : cleaned
    }

    /// `name`, or `name 2.ext`… when an earlier item took it.
    static func unique(_ name: String, in used: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        let base = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
        while used.contains(candidate) {
            candidate = ext.isEmpty ? "\(base) \(number)" : "\(base) \(number).\(ext)"
            number += 1
        }
        used.insert(candidate)
        return candidate
    }

    /// Copies `source` to `target` (a new file) and flushes it to disk.
    static func copy(_ source: URL, to target: URL) throws {
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw ShareError(.noInput, "\(source.path): \(String(cString: strerror(errno)))") }
        defer { close(input) }
        let output = open(target.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw ShareError(.ioError, "\(target.path): \(String(cString: strerror(errno)))") }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw ShareError(.ioError, "\(source.path): \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            var written = 0
            while written < count {
                let step = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if step < 0, errno == EINTR { continue }
                guard step > 0 else { throw ShareError(.ioError, "\(target.path): \(String(cString: strerror(errno)))") }
                written += step
            }
        }
        guard fsync(output) == 0 else { throw ShareError(.ioError, "\(target.path): \(String(cString: strerror(errno)))") }
    }

    static func store(_ data: Data, to target: URL) throws {
        try AtomicFile.write(data, to: target, permissions: 0o600)
    }

    static func syncFolder(_ folder: URL) {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    static func ioError(_ what: String, _ error: any Error) -> ShareError {
        if let error = error as? ShareError { return ShareError(error.kind, "queue: \(what): \(error.message)") }
        return ShareError(.ioError, "queue: \(what): \(error.localizedDescription)")
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // To the microsecond: shares queued within one second keep their order.
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(timeFormat))
        }
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            if let date = try? timeFormat.parse(text) { return date }
            return try Date(text, strategy: .iso8601)
        }
        return decoder
    }()

    static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
