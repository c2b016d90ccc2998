import Foundation
import ShareSheet

/// A transfer a sender proposes, shown to whoever decides whether to accept it.
public struct NearbyOffer: Sendable {
    /// Who sends.
    public var sender: DeviceInfo
    /// The sender's address.
    public var host: String
    /// The files, by their (already made safe) names and sizes.
    public var files: [(name: String, size: Int64)]
    /// The text of a text message, when it is one.
    public var text: String?
}

/// What a receiver reports while it runs.
public enum NearbyReceiverEvent: Sendable {
    /// A file arrived whole and was moved into the folder.
    case received(URL, from: String)
    /// A text message arrived.
    case text(String, from: String)
    /// A transfer was declined.
    case declined(from: String)
    /// A session ended: every accepted file arrived, or it was cancelled, failed or expired.
    case sessionEnded(from: String, completed: Bool)
    /// A request was refused with `status` (the protocol's code; 0 when the connection was gone
    /// before an answer could be sent), for `reason`, in words.
    case refused(request: String, from: String, status: Int, reason: String)
}

/// A LocalSend receiver: an HTTPS server (libsoup) with this device's identity that accepts
/// uploads into one folder, announced to the multicast group.
///
/// Enforces the protocol's rules: one session at a time (409 to others), the PIN (401), a token
/// per file valid once and only from the address that opened the session (403), sizes and
/// SHA-256 digests (400). Files stream into a hidden temporary file in the folder and are moved
/// to a unique name only when whole; nothing is ever written outside the folder, whatever names
/// a sender gives. A temporary file names its writer's PID, so a receiver that starts removes
/// those a killed one left (`PartialFiles`).
///
/// Survives abuse: the PIN, the session and the size of a JSON body are checked on the headers,
/// before a byte of the body is kept (a refused body is read and dropped, never held); JSON
/// bodies are capped (413); a connection that stalls for `Options.timeout` seconds is cut off, and
/// a session without activity for `Options.sessionExpiry` seconds makes room for the next one;
/// every connection is closed after its answer. Names, aliases and texts from a peer reach events
/// only without control characters. Every refusal is reported once, as `.refused`.
public final class NearbyReceiver: @unchecked Sendable, SoupServerDelegate {
    /// How the receiver behaves.
    public struct Options: Sendable {
        /// Where files go (the XDG Download folder by default).
        public var folder: URL
        /// Accept every transfer without asking.
        public var acceptAll: Bool = false
        /// The PIN senders must give, if any.
        public var pin: String?
        /// The TCP port (0: any free one).
        public var port: UInt16 = LocalSend.defaultPort
        /// Announce on the multicast group and answer announcements.
        public var announces: Bool = true
        /// Seconds a connection may make no progress (TLS handshake, headers, body, answer)
        /// before it is cut off.
        public var timeout: UInt32 = 30
        /// Seconds a session may see no activity before another sender may start one.
        public var sessionExpiry: Double = 60
        /// The largest JSON body accepted (`prepare-upload`, `register`), in bytes.
        public var maxJSONBytes: Int64 = 4 << 20

        /// Where the receiver says each step (`share receive --verbose`); nil says nothing.
        public var steps: StepLog?

        /// Options for `folder`.
        public init(folder: URL) { self.folder = folder }
    }

    private let settings: NearbySettings
    private let identity: NearbyIdentity
    private let options: Options
    private let decide: @Sendable (NearbyOffer) -> Bool
    private let onEvent: @Sendable (NearbyReceiverEvent) -> Void
    private var server: SoupServerLoop?
    private var discovery: NearbyDiscovery?

    // State below is touched only on the server's loop thread.
    private var session: Session?
    private var deciding = false
    private var uploads: [OpaquePointer: Upload] = [:]
    /// Chunked JSON bodies being read, with their bytes so far.
    private var jsonBodies: [OpaquePointer: Int64] = [:]
    /// The file received last started, for a progress line; read from any thread.
    private let latest = Locked<Transfer?>(nil)

    /// A file being received: its name and its bytes so far of its size (`kind == .file`).
    /// Unchecked: `Progress` guards its unit counts with its own lock, and its kind is set
    /// before it is shared.
    public struct Transfer: @unchecked Sendable {
        public var fileName: String
        public var progress: Progress
    }

    /// The file being received (the one started last when several are); nil between files.
    public var currentTransfer: Transfer? { latest.withLock { $0 } }

    private final class Session {
        let id = UUID().uuidString
        let host: String
        let sender: DeviceInfo
        var files: [String: FileOffer]
        var tokens: [String: String]
        var usedTokens = Set<String>()
        var finishedFiles = Set<String>()
        var failed = false
        var lastActivity = Date()

        init(host: String, sender: DeviceInfo, files: [String: FileOffer]) {
            self.host = host
            self.sender = sender
            self.files = files
            tokens = Dictionary(uniqueKeysWithValues: files.keys.map { ($0, UUID().uuidString) })
        }
    }

    private final class Upload {
        let session: Session
        let fileId: String
        let offer: FileOffer
        let temporary: URL
        var descriptor: Int32
        let digest = SHA256Digest()
        var received: Int64 = 0 {
            didSet { progress.completedUnitCount = received }
        }
        var broken = false
        var done = false
        let progress: Progress

        init(session: Session, fileId: String, offer: FileOffer, temporary: URL, descriptor: Int32) {
            self.session = session
            self.fileId = fileId
            self.offer = offer
            self.temporary = temporary
            self.descriptor = descriptor
            progress = Progress(totalUnitCount: offer.size)
            progress.kind = .file
        }

        /// Closes and deletes the temporary file.
        func discard() {
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
            unlink(temporary.path)
        }
    }

    /// Prepares a receiver.
    /// - Parameters:
    ///   - settings: the device name and the multicast group it announces itself on.
    ///   - identity: this device's identity, whose certificate the server presents.
    ///   - options: where received files go, the PIN, the port, and whether to accept all.
    ///   - decide: asked (on a background thread) whether to accept an offer, unless `acceptAll`.
    ///   - onEvent: told what arrived, on the server thread.
    public init(
        settings: NearbySettings, identity: NearbyIdentity, options: Options,
        decide: @escaping @Sendable (NearbyOffer) -> Bool, onEvent: @escaping @Sendable (NearbyReceiverEvent) -> Void
    ) {
        self.settings = settings
        self.identity = identity
        self.options = options
        self.decide = decide
        self.onEvent = onEvent
    }

    /// The TCP port the server listens on (after `start()`).
    public var port: UInt16 { server?.port ?? 0 }

    /// Creates the folder, removes what a killed receiver left in it (`PartialFiles`), starts
    /// the server and the announcements.
    /// - Throws: `ShareError` when the folder or the port cannot be used; the folder's error
    ///   names it.
    public func start() throws {
        try Self.prepareFolder(options.folder)
        PartialFiles.removeAbandoned(in: options.folder)
        // "/" takes every path, so a request for none of ours is refused (and logged) here too.
        server = try SoupServerLoop(
            certificate: identity.certificate, key: identity.key, port: options.port, timeout: max(1, options.timeout),
            paths: ["/"], earlyPaths: ["/"], delegate: self)
        if options.announces {
            let discovery = NearbyDiscovery(settings: settings, identity: identity, serverPort: port) { _ in }
            try? discovery.start()
            self.discovery = discovery
        }
    }

    /// Makes `folder` if needed and checks that files can be written there.
    static func prepareFolder(_ folder: URL) throws {
        func failure(_ reason: String) -> ShareError {
            ShareError(.ioError, "receive: cannot receive into \(folder.path): \(reason)")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            if let underlying, underlying.domain == NSPOSIXErrorDomain {
                throw failure(String(cString: strerror(Int32(underlying.code))))
            }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), !isFolder.boolValue {
                throw failure("it is not a folder")
            }
            throw failure(error.localizedDescription)
        }
        guard access(folder.path, W_OK | X_OK) == 0 else { throw failure(String(cString: strerror(errno))) }
    }

    /// Stops announcing and serving; uploads still running are dropped with their temporary files.
    public func stop() {
        discovery?.stop()
        guard let server else { return }
        server.invoke { [self] in
            for upload in uploads.values where !upload.done { upload.discard() }
            uploads.removeAll()
        }
        server.stop()
        self.server = nil
    }

    private var ourInfo: DeviceInfo { settings.deviceInfo(fingerprint: identity.fingerprint, port: port) }

    // MARK: Handlers (server thread)

    /// Answers `status`, reports the refusal once and drops whatever of the body is still to come.
    private func refuse(_ request: SoupRequest, _ status: Int, _ reason: String) {
        guard !request.isAnswered else { return }
        request.refuse(status)
        let name = Self.endpoint(request.path) ?? request.path
        onEvent(.refused(request: name, from: request.remoteHost, status: status, reason: reason))
    }

    /// The API's endpoints: the last word of `/api/localsend/v2/WORD`.
    private static let endpoints: Set<String> = ["register", "info", "prepare-upload", "upload", "cancel"]

    /// The endpoint `path` names exactly, if any.
    static func endpoint(_ path: String) -> String? {
        let api = "/api/localsend/v2/"
        guard path.hasPrefix(api), endpoints.contains(String(path.dropFirst(api.count))) else { return nil }
        return String(path.dropFirst(api.count))
    }

    func handle(path: String, request: SoupRequest) {
        jsonBodies[request.message] = nil
        switch Self.endpoint(request.path) ?? "" {
        case "register":
            guard request.method == "POST" else { return refuse(request, 405, "not a POST") }
            if let info = try? JSONDecoder().decode(DeviceInfo.self, from: request.body), info.fingerprint == identity.fingerprint {
                return refuse(request, 412, "it carries our own fingerprint")
            }
            request.respond(200, json: try? JSONEncoder.localSend().encode(ourInfo))
        case "info":
            request.respond(200, json: try? JSONEncoder.localSend().encode(ourInfo))
        case "prepare-upload":
            prepareUpload(request)
        case "upload":
            finishUpload(request)
        case "cancel":
            cancel(request)
        default:
            refuse(request, 404, "no such path")
        }
    }

    private func expireIdleSession() {
        guard let session, !uploads.values.contains(where: { $0.session === session && !$0.done }),
            Date().timeIntervalSince(session.lastActivity) > options.sessionExpiry
        else { return }
        self.session = nil
        onEvent(.sessionEnded(from: session.sender.alias, completed: false))
    }

    /// The checks `prepare-upload` passes before its body is read: method, PIN, a free slot.
    private func admitPrepareUpload(_ request: SoupRequest) -> Bool {
        guard request.method == "POST" else {
            refuse(request, 405, "not a POST")
            return false
        }
        if let pin = options.pin, !pin.isEmpty, request.query["pin"] != pin {
            refuse(request, 401, request.query["pin"] == nil ? "no PIN" : "wrong PIN")
            return false
        }
        expireIdleSession()
        if session != nil || deciding {
            refuse(request, 409, "another transfer is running")
            return false
        }
        return true
    }

    private func prepareUpload(_ request: SoupRequest) {
        guard admitPrepareUpload(request) else { return }
        let body: PrepareUploadRequest
        switch OfferReading.read(request.body, ourFingerprint: identity.fingerprint) {
        case .refused(let status, let reason): return refuse(request, status, reason)
        case .empty: return request.respond(204)
        case .offer(let offer): body = offer
        }
        let files = body.files
        let host = request.remoteHost
        let offered = files
        let sender = body.info
        let textMessage: String? = {
            guard files.count == 1, let only = files.values.first, let preview = only.preview,
                only.fileType.hasPrefix("text/")
            else { return nil }
            return preview
        }()
        let offer = NearbyOffer(
            sender: sender, host: host, files: files.values.map { ($0.fileName, $0.size) }.sorted { $0.name < $1.name },
            text: textMessage)
        let respond: @Sendable (Bool) -> Void = { [self] accepted in
            deciding = false
            guard accepted else {
                onEvent(.declined(from: sender.alias))
                return refuse(request, 403, "declined")
            }
            if let textMessage {
                onEvent(.text(textMessage, from: sender.alias))
                return request.respond(204)
            }
            let session = Session(host: host, sender: sender, files: offered)
            self.session = session
            let answer = PrepareUploadResponse(sessionId: session.id, files: session.tokens)
            request.respond(200, json: try? JSONEncoder.localSend().encode(answer))
        }
        if options.acceptAll { return respond(true) }
        deciding = true
        request.pause()
        let decide = self.decide
        let server = self.server
        Thread.detachNewThread {
            let accepted = decide(offer)
            server?.invoke {
                respond(accepted)
                request.unpause()
            }
        }
    }

    /// After the headers, before the body: uploads are checked and streamed to disk; the other
    /// requests are refused here when their PIN, method or declared size is wrong, and a chunked
    /// JSON body is counted as it comes (413 past the cap).
    func handleEarly(path: String, request: SoupRequest) {
        guard let name = Self.endpoint(request.path) else { return refuse(request, 404, "no such path") }
        if name == "upload" { return startUpload(request) }
        if name == "prepare-upload", !admitPrepareUpload(request) { return }
        if name == "info" { return }
        let length = request.contentLength
        if length > options.maxJSONBytes {
            return refuse(request, 413, "a JSON body of \(length) bytes (at most \(options.maxJSONBytes))")
        }
        if request.isChunked {
            jsonBodies[request.message] = 0
            server?.watch(request.message, delegate: self)
        }
    }

    /// After the headers of an upload: checks session, token and address before a single byte
    /// of the body is stored, then streams the body into a temporary file in the folder.
    private func startUpload(_ request: SoupRequest) {
        guard request.method == "POST" else { return refuse(request, 405, "not a POST") }
        guard let sessionId = request.query["sessionId"], let fileId = request.query["fileId"],
            let token = request.query["token"]
        else { return refuse(request, 400, "sessionId, fileId or token missing") }
        guard let session, session.id == sessionId else { return refuse(request, 403, "not the running session") }
        guard session.host == request.remoteHost else { return refuse(request, 403, "not the session's address") }
        guard let expected = session.tokens[fileId], expected == token, !session.usedTokens.contains(token),
            let offer = session.files[fileId]
        else { return refuse(request, 403, "a wrong or spent token") }
        // From here on the token is spent, whatever happens to the body.
        session.usedTokens.insert(token)
        let length = request.contentLength
        if length >= 0, length != offer.size {
            fileEnded(fileId, in: session, ok: false)
            return refuse(request, 400, "\(length) bytes announced for a file of \(offer.size)")
        }
        let temporary = options.folder.appendingPathComponent(PartialFiles.newName())
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            fileEnded(fileId, in: session, ok: false)
            return refuse(request, 500, "cannot write into \(options.folder.path): \(reason)")
        }
        session.lastActivity = Date()
        let upload = Upload(session: session, fileId: fileId, offer: offer, temporary: temporary, descriptor: descriptor)
        uploads[request.message] = upload
        latest.withLock { $0 = Transfer(fileName: offer.fileName, progress: upload.progress) }
        options.steps?.say("receive: \(offer.fileName) (\(offer.size) bytes) from \(session.sender.alias) (\(session.host))")
        request.streamBody()
        server?.watch(request.message, delegate: self)
    }

    func gotChunk(message: OpaquePointer, request: SoupRequest, bytes: UnsafeRawBufferPointer) {
        if let count = jsonBodies[message] {
            jsonBodies[message] = count + Int64(bytes.count)
            if count + Int64(bytes.count) > options.maxJSONBytes {
                jsonBodies[message] = nil
                refuse(request, 413, "a chunked JSON body past \(options.maxJSONBytes) bytes")
            }
            return
        }
        guard let upload = uploads[message], !upload.broken, !upload.done, upload.descriptor >= 0 else { return }
        upload.received += Int64(bytes.count)
        upload.session.lastActivity = Date()
        if upload.received > upload.offer.size {
            upload.broken = true
            return upload.discard()
        }
        upload.digest.update(bytes)
        var offset = 0
        while offset < bytes.count {
            let written = write(upload.descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                upload.broken = true
                return upload.discard()
            }
            offset += written
        }
    }

    /// After the whole body: checks size and digest, then moves the file into place.
    private func finishUpload(_ request: SoupRequest) {
        guard let upload = uploads[request.message] else { return refuse(request, 403, "no upload was started") }
        uploads[request.message] = nil
        upload.done = true
        endTransfer(upload)
        let session = upload.session
        guard self.session === session else {
            upload.discard()
            return refuse(request, 409, "its session has ended")
        }
        let digest = upload.digest.finalHex()
        let digestMatches = upload.offer.sha256.map { $0.lowercased() == digest } ?? true
        guard !upload.broken, upload.received == upload.offer.size, digestMatches, fsync(upload.descriptor) == 0 else {
            let reason =
                upload.received != upload.offer.size
                ? "\(upload.received) bytes for a file of \(upload.offer.size)"
                : digestMatches ? "the file could not be written" : "the SHA-256 does not match"
            upload.discard()
            fileEnded(upload.fileId, in: session, ok: false)
            return refuse(request, 400, reason)
        }
        close(upload.descriptor)
        upload.descriptor = -1
        fchmodat(AT_FDCWD, upload.temporary.path, 0o644, 0)
        guard let final = Self.claimUniqueName(upload.offer.fileName, in: options.folder, from: upload.temporary) else {
            upload.discard()
            fileEnded(upload.fileId, in: session, ok: false)
            return refuse(request, 500, "no free name for \(upload.offer.fileName) in \(options.folder.path)")
        }
        options.steps?.say("receive: saved \(upload.offer.fileName) as \(final.path)")
        onEvent(.received(final, from: session.sender.alias))
        fileEnded(upload.fileId, in: session, ok: true)
        request.respond(200)
    }

    func messageFinished(message: OpaquePointer, request: SoupRequest) {
        jsonBodies[message] = nil
        guard let upload = uploads.removeValue(forKey: message) else { return }
        guard !upload.done else { return }
        // The sender went away (or was cut off) before the body was whole.
        upload.done = true
        endTransfer(upload)
        upload.discard()
        onEvent(
            .refused(
                request: "upload", from: upload.session.host, status: 0,
                reason: "the connection ended (or stalled for \(options.timeout) s) after \(upload.received) of \(upload.offer.size) bytes"))
        if session === upload.session { fileEnded(upload.fileId, in: upload.session, ok: false) }
    }

    /// The upload's progress is no longer the one to show.
    private func endTransfer(_ upload: Upload) {
        latest.withLock { if $0?.progress === upload.progress { $0 = nil } }
    }

    private func fileEnded(_ fileId: String, in session: Session, ok: Bool) {
        session.finishedFiles.insert(fileId)
        if !ok { session.failed = true }
        if session.finishedFiles.count == session.files.count, self.session === session {
            self.session = nil
            onEvent(.sessionEnded(from: session.sender.alias, completed: !session.failed))
        }
    }

    private func cancel(_ request: SoupRequest) {
        guard let session, request.query["sessionId"] == session.id, request.remoteHost == session.host else {
            return refuse(request, 403, "not the running session or not its address")
        }
        for (message, upload) in uploads where upload.session === session {
            upload.done = true
            upload.discard()
            uploads[message] = nil
        }
        self.session = nil
        onEvent(.sessionEnded(from: session.sender.alias, completed: false))
        request.respond(200)
    }

    // MARK: Names

    /// Whether `scalar` must never reach a terminal or a file name: C0 and C1 controls, DEL, and
    /// the bidirectional overrides and isolates that make a name read differently from what it is.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` with every control character replaced by U+FFFD (visibly), newlines and tabs kept
    /// when `keepingLines`, cut to `limit` characters.
    static func printable(_ text: String, keepingLines: Bool = false, limit: Int = .max) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let kept = keepingLines && (scalar == "\n" || scalar == "\t")
            scalars.append(isControl(scalar) && !kept ? "\u{FFFD}" : scalar)
        }
        let cleaned = String(scalars)
        return cleaned.count > limit ? String(cleaned.prefix(limit)) + "…" : cleaned
    }

    /// A name that stays inside the folder whatever a sender sent: the last path component
    /// (either slash), control characters replaced by U+FFFD, not `.`/`..`, not hidden, at most
    /// 200 bytes.
    static func safeName(_ name: String) -> String {
        let lastComponent = name.replacingOccurrences(of: "\\", with: "/").split(separator: "/").last.map(String.init) ?? ""
        var cleaned = printable(lastComponent)
        cleaned = cleaned.trimmingCharacters(in: .whitespaces)
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        while cleaned.utf8.count > 200 { cleaned.removeLast() }
        return cleaned.isEmpty ? "file" : cleaned
    }

    /// Links `temporary` to `name` in `folder` (or `name 2`, `name 3`…) without ever replacing a
    /// file, then removes the temporary name. Returns the final URL.
    static func claimUniqueName(_ name: String, in folder: URL, from temporary: URL) -> URL? {
        let base = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
        for number in 1...10_000 {
            let candidate = number == 1 ? name : "\(base) \(number)" + (ext.isEmpty ? "" : ".\(ext)")
            let url = folder.appendingPathComponent(candidate)
            // The name was made safe; check anyway that it names a file directly in the folder.
            guard url.deletingLastPathComponent().standardizedFileURL.path == folder.standardizedFileURL.path else { return nil }
            if link(temporary.path, url.path) == 0 {
                unlink(temporary.path)
                return url
            }
            if errno != EEXIST { return nil }
        }
        return nil
    }
}
