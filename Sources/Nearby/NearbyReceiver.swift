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
    /// A session ended: every accepted file arrived, or it was cancelled or failed.
    case sessionEnded(from: String, completed: Bool)
}

/// A LocalSend receiver: an HTTPS server (libsoup) with this device's identity that accepts
/// uploads into one folder, announced to the multicast group.
///
/// Enforces the protocol's rules: one session at a time (409 to others), the PIN (401), a token
/// per file valid once and only from the address that opened the session (403), sizes and
/// SHA-256 digests (400). Files stream into a hidden temporary file in the folder and are moved
/// to a unique name only when whole; nothing is ever written outside the folder, whatever names
/// a sender gives.
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
        var received: Int64 = 0
        var broken = false
        var done = false

        init(session: Session, fileId: String, offer: FileOffer, temporary: URL, descriptor: Int32) {
            self.session = session
            self.fileId = fileId
            self.offer = offer
            self.temporary = temporary
            self.descriptor = descriptor
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

    /// Creates the folder, starts the server and the announcements.
    /// - Throws: `ShareError` when the folder or the port cannot be used.
    public func start() throws {
        try FileManager.default.createDirectory(at: options.folder, withIntermediateDirectories: true)
        let api = "/api/localsend/v2/"
        server = try SoupServerLoop(
            certificate: identity.certificate, key: identity.key, port: options.port,
            paths: [api + "register", api + "info", api + "prepare-upload", api + "upload", api + "cancel"],
            earlyPaths: [api + "upload"], delegate: self)
        if options.announces {
            let discovery = NearbyDiscovery(settings: settings, identity: identity, serverPort: port) { _ in }
            try? discovery.start()
            self.discovery = discovery
        }
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

    func handle(path: String, request: SoupRequest) {
        switch path.split(separator: "/").last ?? "" {
        case "register":
            guard request.method == "POST" else { return request.respond(405) }
            if let info = try? JSONDecoder().decode(DeviceInfo.self, from: request.body), info.fingerprint == identity.fingerprint {
                return request.respond(412)
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
            request.respond(404)
        }
    }

    private func expireIdleSession() {
        guard let session, !uploads.values.contains(where: { $0.session === session && !$0.done }),
            Date().timeIntervalSince(session.lastActivity) > 60
        else { return }
        self.session = nil
    }

    private func prepareUpload(_ request: SoupRequest) {
        guard request.method == "POST" else { return request.respond(405) }
        if let pin = options.pin, !pin.isEmpty, request.query["pin"] != pin { return request.respond(401) }
        expireIdleSession()
        if session != nil || deciding { return request.respond(409) }
        guard let body = try? JSONDecoder().decode(PrepareUploadRequest.self, from: request.body) else {
            return request.respond(400)
        }
        if body.info.fingerprint == identity.fingerprint { return request.respond(412) }
        if body.files.isEmpty { return request.respond(204) }
        var files: [String: FileOffer] = [:]
        for (id, var offer) in body.files {
            guard offer.size >= 0, !id.isEmpty else { return request.respond(400) }
            offer.fileName = Self.safeName(offer.fileName)
            files[id] = offer
        }
        let host = request.remoteHost
        let offered = files
        let textMessage: String? = {
            guard files.count == 1, let only = files.values.first, let preview = only.preview,
                only.fileType.hasPrefix("text/")
            else { return nil }
            return preview
        }()
        let offer = NearbyOffer(
            sender: body.info, host: host, files: files.values.map { ($0.fileName, $0.size) }.sorted { $0.name < $1.name },
            text: textMessage)
        let respond: @Sendable (Bool) -> Void = { [self] accepted in
            deciding = false
            guard accepted else {
                onEvent(.declined(from: body.info.alias))
                return request.respond(403)
            }
            if let textMessage {
                onEvent(.text(textMessage, from: body.info.alias))
                return request.respond(204)
            }
            let session = Session(host: host, sender: body.info, files: offered)
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

    /// After the headers of an upload: checks session, token and address before a single byte
    /// of the body is stored, then streams the body into a temporary file in the folder.
    func handleEarly(path: String, request: SoupRequest) {
        guard request.method == "POST" else { return request.respond(405) }
        guard let sessionId = request.query["sessionId"], let fileId = request.query["fileId"],
            let token = request.query["token"]
        else { return request.respond(400) }
        guard let session, session.id == sessionId, session.host == request.remoteHost,
            let expected = session.tokens[fileId], expected == token, !session.usedTokens.contains(token),
            let offer = session.files[fileId]
        else { return request.respond(403) }
        // From here on the token is spent, whatever happens to the body.
        session.usedTokens.insert(token)
        let length = request.contentLength
        if length >= 0, length != offer.size {
            fileEnded(fileId, in: session, ok: false)
            return request.respond(400)
        }
        let temporary = options.folder.appendingPathComponent(".\(UUID().uuidString).sharesheet-part")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            fileEnded(fileId, in: session, ok: false)
            return request.respond(500)
        }
        session.lastActivity = Date()
        uploads[request.message] = Upload(
            session: session, fileId: fileId, offer: offer, temporary: temporary, descriptor: descriptor)
        request.streamBody()
        server?.watch(request.message, delegate: self)
    }

    func gotChunk(message: OpaquePointer, bytes: UnsafeRawBufferPointer) {
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
        guard let upload = uploads[request.message] else { return request.respond(403) }
        uploads[request.message] = nil
        upload.done = true
        let session = upload.session
        guard self.session === session else {
            upload.discard()
            return request.respond(409)
        }
        let digest = upload.digest.finalHex()
        let digestMatches = upload.offer.sha256.map { $0.lowercased() == digest } ?? true
        guard !upload.broken, upload.received == upload.offer.size, digestMatches, fsync(upload.descriptor) == 0 else {
            upload.discard()
            fileEnded(upload.fileId, in: session, ok: false)
            return request.respond(400)
        }
        close(upload.descriptor)
        upload.descriptor = -1
        fchmodat(AT_FDCWD, upload.temporary.path, 0o644, 0)
        guard let final = Self.claimUniqueName(upload.offer.fileName, in: options.folder, from: upload.temporary) else {
            upload.discard()
            fileEnded(upload.fileId, in: session, ok: false)
            return request.respond(500)
        }
        onEvent(.received(final, from: session.sender.alias))
        fileEnded(upload.fileId, in: session, ok: true)
        request.respond(200)
    }

    func messageFinished(message: OpaquePointer) {
        guard let upload = uploads.removeValue(forKey: message) else { return }
        guard !upload.done else { return }
        // The sender went away (or was cut off) before the body was whole.
        upload.done = true
        upload.discard()
        if session === upload.session { fileEnded(upload.fileId, in: upload.session, ok: false) }
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
            return request.respond(403)
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

    /// A name that stays inside the folder whatever a sender sent: the last path component
    /// (either slash), without NUL or control characters, not `.`/`..`, not hidden, at most 200
    /// bytes.
    static func safeName(_ name: String) -> String {
        let lastComponent = name.replacingOccurrences(of: "\\", with: "/").split(separator: "/").last.map(String.init) ?? ""
        var cleaned = String(String.UnicodeScalarView(lastComponent.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
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
