import Foundation
import ShareSheet
import ShareSheetSystem

/// The mail outbox: a Maildir under `$XDG_DATA_HOME/sharesheet/Outbox` holding messages that
/// wait to be sent.
///
/// A message is written into `tmp/` and renamed into `new/` only once it is complete, so the
/// outbox holds whole messages or nothing. To send one, it is first renamed into `sending/`
/// (holding a lock on it): two senders can never take the same message, and a message whose
/// sender died stays in `sending/` as *interrupted* instead of being sent twice;
/// `retry(_:)` puts it back in the queue.
public struct MailOutbox: Sendable {
    /// The Maildir folder.
    public let folder: URL

    /// The state of a stored message.
    public enum State: String, Sendable {
        /// Waiting in `new/` to be sent.
        case queued
        /// Being sent right now by some process.
        case sending
        /// Its sender stopped mid-send: it may or may not have reached the server.
        case interrupted
    }

    /// One stored message.
    public struct Entry: Sendable {
        /// The id `share outbox` uses: the Maildir file name.
        public var id: String
        /// Where the message is.
        public var state: State
        /// The file.
        public var url: URL
        /// The decoded subject.
        public var subject: String
        /// The To, Cc and Bcc addresses.
        public var recipients: [String]
        /// The sender's address.
        public var sender: String?
        /// The Date header.
        public var date: String?
        /// The file's size in bytes.
        public var size: Int64
    }

    /// The outbox at `folder`.
    public init(folder: URL) { self.folder = folder }

    /// The user's outbox: `$XDG_DATA_HOME/sharesheet/Outbox`.
    public init(directories: XDGDirectories = HostEnvironment.process.directories) {
        folder = directories.shareSheetData.appendingPathComponent("Outbox", isDirectory: true)
    }

    var tmp: URL { folder.appendingPathComponent("tmp", isDirectory: true) }
    var new: URL { folder.appendingPathComponent("new", isDirectory: true) }
    var sending: URL { folder.appendingPathComponent("sending", isDirectory: true) }

    /// Creates the Maildir folders (`tmp`, `new`, `cur`, `sending`) when missing.
    func prepare() throws {
        for sub in ["tmp", "new", "cur", "sending"] {
            do {
                try FileManager.default.createDirectory(
                    at: folder.appendingPathComponent(sub, isDirectory: true), withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } catch {
                throw ShareError(.ioError, "outbox \(folder.path): cannot create \(sub)/: \(error.localizedDescription)")
            }
        }
    }

    /// Removes what a writer that died left in `tmp/`: at once when the name says the file was
    /// written on this host by a process that no longer runs (Maildir names carry the writer's
    /// PID and host); otherwise, as the Maildir convention says, once it is untouched for 36
    /// hours (a message being written is touched continuously).
    func removeStaleTemporaries(now: Date = Date()) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []
        var host: String?
        for name in names {
            let url = tmp.appendingPathComponent(name)
            var info = stat()
            guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            if host == nil { host = Self.host }
            if let writer = Self.writer(of: name), writer.host == host, WriterProcess.isGone(writer.pid) {
                unlink(url.path)
            } else if now.timeIntervalSince1970 - Double(info.st_mtim.tv_sec) > 36 * 3600 {
                unlink(url.path)
            }
        }
    }

    /// The PID and host in a Maildir name (`time.M…P<pid>R….host`); nil for another shape.
    static func writer(of name: String) -> (pid: pid_t, host: String)? {
        let parts = name.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let marker = parts[1].firstIndex(of: "P") else { return nil }
        let digits = parts[1][parts[1].index(after: marker)...].prefix { $0.isASCII && $0.isNumber }
        guard let pid = pid_t(digits), pid > 0 else { return nil }
        return (pid, String(parts[2]))
    }

    /// This host's name as Maildir names carry it ("/" and ":" escaped).
    static var host: String {
        ProcessInfo.processInfo.hostName.replacingOccurrences(of: "/", with: "\\057")
            .replacingOccurrences(of: ":", with: "\\072")
    }

    /// A fresh Maildir name: time, process, random part, host.
    static func uniqueName() -> String {
        let now = Date().timeIntervalSince1970
        let seconds = Int(now)
        let micros = Int((now - Double(seconds)) * 1_000_000)
        let random = UInt32.random(in: 0...UInt32.max)
        return "\(seconds).M\(micros)P\(getpid())R\(String(random, radix: 16)).\(host)"
    }

    /// Creates an empty file in `tmp/` for a message being written.
    /// - Returns: its open descriptor and its URL.
    func createTemporary() throws -> (descriptor: Int32, url: URL) {
        try prepare()
        removeStaleTemporaries()
        let url = tmp.appendingPathComponent(Self.uniqueName())
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ShareError(.ioError, "outbox: cannot create \(url.path): \(String(cString: strerror(errno)))")
        }
        return (descriptor, url)
    }

    /// Moves a complete message from `tmp/` into `new/`: from now on it is queued.
    func enqueue(_ temporary: URL) throws -> URL {
        let target = new.appendingPathComponent(temporary.lastPathComponent)
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw ShareError(.ioError, "outbox: cannot queue \(temporary.lastPathComponent): \(reason)")
        }
        syncFolder(new)
        return target
    }

    /// A message taken out of the queue for sending; the lock is held until it is finished.
    final class Claim {
        let id: String
        let url: URL
        let descriptor: Int32
        init(id: String, url: URL, descriptor: Int32) {
            self.id = id
            self.url = url
            self.descriptor = descriptor
        }
        deinit { close(descriptor) }
    }

    /// Takes the queued message `id` for sending: locks it and renames it into `sending/`.
    /// - Returns: nil when another process took it first.
    func claim(_ id: String) throws -> Claim? {
        let source = new.appendingPathComponent(id)
        let descriptor = open(source.path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw ShareError(.ioError, "outbox: \(id): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        let target = sending.appendingPathComponent(id)
        var moved = rename(source.path, target.path) == 0
        if !moved, errno == ENOENT, access(sending.path, F_OK) != 0 {
            // `sending/` is gone (removed by hand, say): make it again rather than take the
            // message for one another process holds.
            do { try prepare() } catch {
                close(descriptor)
                throw error
            }
            moved = rename(source.path, target.path) == 0
        }
        guard moved else {
            let code = errno
            close(descriptor)
            if code == ENOENT { return nil }
            throw ShareError(.ioError, "outbox: \(id): cannot move to sending/: \(String(cString: strerror(code)))")
        }
        syncFolder(sending)
        return Claim(id: id, url: target, descriptor: descriptor)
    }

    /// Sent: the message leaves the outbox.
    func finish(_ claim: Claim) {
        unlink(claim.url.path)
        syncFolder(sending)
    }

    /// Not sent: the message goes back into the queue.
    func release(_ claim: Claim) {
        let target = new.appendingPathComponent(claim.id)
        if rename(claim.url.path, target.path) == 0 { syncFolder(new) }
    }

    /// Puts an interrupted message back in the queue, to be sent by the next flush.
    /// - Throws: `ShareError(.noInput)` when there is no interrupted message `id`.
    public func retry(_ id: String) throws {
        let entry = try entry(id)
        guard entry.state == .interrupted else {
            throw ShareError(.usage, "outbox: \(entry.id) is \(entry.state.rawValue), not interrupted")
        }
        guard rename(entry.url.path, new.appendingPathComponent(entry.id).path) == 0 else {
            throw ShareError(.ioError, "outbox: \(entry.id): \(String(cString: strerror(errno)))")
        }
    }

    /// Deletes a queued or interrupted message.
    public func remove(_ id: String) throws {
        let entry = try entry(id)
        guard entry.state != .sending else { throw ShareError(.temporaryFailure, "outbox: \(entry.id) is being sent") }
        guard unlink(entry.url.path) == 0 else {
            throw ShareError(.ioError, "outbox: \(entry.id): \(String(cString: strerror(errno)))")
        }
    }

    /// Every stored message, oldest first.
    public func entries() -> [Entry] {
        removeStaleTemporaries()
        var result: [Entry] = []
        for (sub, queued) in [(new, true), (sending, false)] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: sub.path)) ?? []
            for name in names where !name.hasPrefix(".") {
                let url = sub.appendingPathComponent(name)
                let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else { continue }
                defer { close(descriptor) }
                var state = State.queued
                if !queued {
                    state = flock(descriptor, LOCK_SH | LOCK_NB) == 0 ? .interrupted : .sending
                }
                var info = stat()
                fstat(descriptor, &info)
                let header = HeaderSection.read(descriptor)
                result.append(
                    Entry(
                        id: name, state: state, url: url, subject: header?.subject ?? "",
                        recipients: ["To", "Cc", "Bcc"].flatMap { header?.addresses($0) ?? [] },
                        sender: header?.addresses("From").first, date: header?.value("Date"),
                        size: Int64(info.st_size)))
            }
        }
        return result.sorted { MaildirOrder.precedes($0.id, $1.id) }
    }

    /// The message whose id is or starts with `id`.
    /// - Throws: `ShareError(.noInput)` when none or several match.
    public func entry(_ id: String) throws -> Entry {
        let all = entries()
        if let exact = all.first(where: { $0.id == id }) { return exact }
        let matches = all.filter { $0.id.hasPrefix(id) }
        guard matches.count == 1 else {
            throw ShareError(
                .noInput, matches.isEmpty ? "outbox: no message \(id)" : "outbox: \(id) matches \(matches.count) messages")
        }
        return matches[0]
    }

    /// The header section of a stored message, its lines ending in LF, without the blank line
    /// that ends it: what `share outbox show` prints. Read by the same reader as sending, so the
    /// two agree on where the headers end whether the file ends its lines in LF or CRLF.
    /// - Throws: `ShareError(.ioError)` when the file cannot be read; `.badData` when it has no
    ///   header section.
    public func headerText(of entry: Entry) throws -> String {
        let descriptor = open(entry.url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ShareError(.ioError, "outbox: \(entry.id): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard let header = HeaderSection.read(descriptor) else {
            throw ShareError(.badData, "outbox: \(entry.id): not a message (no header section)")
        }
        return String(decoding: header.text, as: UTF8.self)
    }

    private func syncFolder(_ url: URL) {
        let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
