import CSoup
import CSoupShims
import Foundation
import GLibErrors
import GSignals
import ShareSheet

/// One request as libsoup hands it to a handler: the only place this module touches
/// SoupServerMessage.
struct SoupRequest: @unchecked Sendable {
    let message: OpaquePointer
    let query: [String: String]

    /// The address the request came from.
    var remoteHost: String {
        guard let host = soup_server_message_get_remote_host(message) else { return "" }
        return String(cString: host)
    }

    /// The request's path.
    var path: String {
        guard let uri = soup_server_message_get_uri(message), let path = g_uri_get_path(uri) else { return "" }
        return String(cString: path)
    }

    /// Whether the body comes chunked (its length is known only at its end).
    var isChunked: Bool {
        soup_message_headers_get_encoding(soup_server_message_get_request_headers(message)) == SOUP_ENCODING_CHUNKED
    }

    /// The declared body length, or -1 when the request is chunked.
    var contentLength: Int64 {
        let headers = soup_server_message_get_request_headers(message)
        return soup_message_headers_get_encoding(headers) == SOUP_ENCODING_CONTENT_LENGTH
            ? Int64(soup_message_headers_get_content_length(headers)) : -1
    }

    /// The whole request body (for small JSON bodies; uploads stream instead).
    var body: Data {
        guard let body = soup_server_message_get_request_body(message), let bytes = soup_message_body_flatten(body) else { return Data() }
        defer { g_bytes_unref(bytes) }
        var size: gsize = 0
        guard let pointer = g_bytes_get_data(bytes, &size), size > 0 else { return Data() }
        return Data(bytes: pointer, count: Int(size))
    }

    var method: String { soup_server_message_get_method(message).map { String(cString: $0) } ?? "" }

    func respond(_ status: Int, json: Data? = nil) {
        soup_server_message_set_status(message, guint(status), nil)
        if let json {
            json.withUnsafeBytes { bytes in
                soup_server_message_set_response(
                    message, "application/json", SOUP_MEMORY_COPY, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), gsize(bytes.count))
            }
        }
    }

    /// Refuses the request with `status` without keeping its body: what is still to come is read
    /// and dropped (memory stays flat whatever the sender declared), and the connection closes
    /// after the answer.
    func refuse(_ status: Int) {
        soup_server_message_set_status(message, guint(status), nil)
        streamBody()
    }

    /// Whether a status was set already (the request was answered or refused).
    var isAnswered: Bool { soup_server_message_get_status(message) != 0 }

    func pause() { soup_server_message_pause(message) }
    func unpause() { soup_server_message_unpause(message) }

    /// Stops accumulating the body: it is handed to `got-chunk` handlers piece by piece.
    func streamBody() {
        soup_message_body_set_accumulate(soup_server_message_get_request_body(message), 0)
    }

    static func query(_ table: OpaquePointer?) -> [String: String] {
        guard let table else { return [:] }
        var result: [String: String] = [:]
        var iterator = GHashTableIter()
        g_hash_table_iter_init(&iterator, table)
        var key: gpointer?
        var value: gpointer?
        while g_hash_table_iter_next(&iterator, &key, &value) != 0 {
            guard let key, let value else { continue }
            result[String(cString: key.assumingMemoryBound(to: CChar.self))] = String(cString: value.assumingMemoryBound(to: CChar.self))
        }
        return result
    }
}

/// What the server calls: normal handlers get the whole request; early handlers run after the
/// headers, before the body.
protocol SoupServerDelegate: AnyObject {
    func handle(path: String, request: SoupRequest)
    func handleEarly(path: String, request: SoupRequest)
    func gotChunk(message: OpaquePointer, request: SoupRequest, bytes: UnsafeRawBufferPointer)
    func messageFinished(message: OpaquePointer, request: SoupRequest)
}

/// A libsoup HTTPS server running its own GLib main loop on a dedicated thread. Every delegate
/// call happens on that thread; `invoke` runs other work there.
final class SoupServerLoop: @unchecked Sendable {
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private var server: UnsafeMutablePointer<SoupServer>?
    private let thread: Thread
    private let ready = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var startError: ShareError?
    private(set) var port: UInt16 = 0

    /// Starts the loop thread, creates the server with `certificate`/`key` and listens on `port`
    /// (0: any free port) on every IPv4 address.
    ///
    /// Every connection serves one request and is closed after the answer, and each of its reads
    /// and writes (the TLS handshake included) fails after `timeout` seconds without progress.
    /// libsoup 3.2 never releases a kept-alive connection that its client closes (it stays in
    /// CLOSE_WAIT with its descriptor) and has no timeouts of its own.
    init(
        certificate: URL, key: URL, port: UInt16, timeout: UInt32, paths: [String], earlyPaths: [String],
        delegate: SoupServerDelegate
    ) throws {
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
        let box = Unmanaged.passRetained(DelegateBox(delegate))
        let state = ThreadState()
        thread = Thread {
            state.run()
        }
        state.body = { [unowned self] in
            g_main_context_push_thread_default(context)
            defer { g_main_context_pop_thread_default(context) }
            var error: UnsafeMutablePointer<GError>?
            guard let tls = g_tls_certificate_new_from_files(certificate.path, key.path, &error) else {
                startError = ShareError(
                    .ioError,
                    "AirDrop: \(certificate.path): \(GLibError(taking: &error, call: "g_tls_certificate_new_from_files").message)")
                box.release()
                ready.signal()
                finished.signal()
                return
            }
            server = csoup_server_new_tls(tls)
            g_object_unref(UnsafeMutableRawPointer(tls))
            if let server {
                Signal.connect(UnsafeMutableRawPointer(server), "request-started") { emission in
                    guard let message = emission.object(0) else { return }
                    requestStarted(OpaquePointer(message), timeout: timeout)
                }
            }
            for path in paths {
                soup_server_add_handler(server, path, handlerCallback, box.retain().toOpaque(), releaseBox)
            }
            for path in earlyPaths {
                soup_server_add_early_handler(server, path, earlyHandlerCallback, box.retain().toOpaque(), releaseBox)
            }
            box.release()
            let options = SoupServerListenOptions(rawValue: SOUP_SERVER_LISTEN_HTTPS.rawValue | SOUP_SERVER_LISTEN_IPV4_ONLY.rawValue)
            if soup_server_listen_all(server, guint(port), options, &error) == 0 {
                startError = ShareError(
                    .unavailable,
                    "AirDrop: cannot listen on TCP port \(port): \(GLibError(taking: &error, call: "soup_server_listen_all").message)")
            } else if let uris = soup_server_get_uris(server) {
                if let first = uris.pointee.data {
                    self.port = UInt16(clamping: g_uri_get_port(OpaquePointer(first)))
                }
                g_slist_free_full(uris, { g_uri_unref(OpaquePointer($0)) })
            }
            ready.signal()
            if startError == nil { g_main_loop_run(loop) }
            if let server {
                soup_server_disconnect(server)
                g_object_unref(UnsafeMutableRawPointer(server))
                self.server = nil
            }
            // Let the server's pending cleanup run before the context goes.
            while g_main_context_iteration(context, 0) != 0 {}
            finished.signal()
        }
        thread.name = "nearby-server"
        thread.start()
        ready.wait()
        if let startError {
            finished.wait()
            throw startError
        }
    }

    deinit {
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    /// Stops the loop and waits for the thread to end.
    func stop() {
        invoke { [loop] in g_main_loop_quit(loop) }
        finished.wait()
    }

    /// Runs `work` on the loop's thread.
    func invoke(_ work: @escaping () -> Void) {
        let box = Unmanaged.passRetained(WorkBox(work)).toOpaque()
        g_main_context_invoke_full(context, G_PRIORITY_DEFAULT, { data in
            Unmanaged<WorkBox>.fromOpaque(data!).takeUnretainedValue().work()
            return 0
        }, box, { data in Unmanaged<WorkBox>.fromOpaque(data!).release() })
    }

    /// Connects the streaming-body and end-of-message signals of `message` to the delegate.
    func watch(_ message: OpaquePointer, delegate: SoupServerDelegate) {
        let box = DelegateBox(delegate)
        let instance = UnsafeMutableRawPointer(message)
        Signal.connect(instance, "got-chunk") { emission in
            guard let message = emission.instance.map(OpaquePointer.init), let bytes = emission.boxed(0) else { return }
            var size: gsize = 0
            guard let pointer = g_bytes_get_data(OpaquePointer(bytes), &size) else { return }
            box.delegate?.gotChunk(
                message: message, request: SoupRequest(message: message, query: [:]),
                bytes: UnsafeRawBufferPointer(start: pointer, count: Int(size)))
        }
        for signal in ["finished", "disconnected"] {
            Signal.connect(instance, signal) { emission in
                guard let message = emission.instance.map(OpaquePointer.init) else { return }
                box.delegate?.messageFinished(message: message, request: SoupRequest(message: message, query: [:]))
            }
        }
    }

    private final class ThreadState: @unchecked Sendable {
        var body: () -> Void = {}
        func run() { body() }
    }
}

/// A connection's first message (emitted at accept, before the TLS handshake): its socket gets
/// the read and write timeout, and its answer says the connection closes.
private func requestStarted(_ message: OpaquePointer, timeout: UInt32) {
    if let socket = soup_server_message_get_socket(message) { g_socket_set_timeout(socket, timeout) }
    soup_message_headers_replace(soup_server_message_get_response_headers(message), "Connection", "close")
}

/// Holds the delegate weakly for C callbacks and signal handlers, which all run on the loop's
/// thread (the delegate's too).
final class DelegateBox: @unchecked Sendable {
    weak var delegate: SoupServerDelegate?
    init(_ delegate: SoupServerDelegate) { self.delegate = delegate }
}

private final class WorkBox {
    let work: () -> Void
    init(_ work: @escaping () -> Void) { self.work = work }
}

private let releaseBox: GDestroyNotify = { data in
    if let data { Unmanaged<DelegateBox>.fromOpaque(data).release() }
}

private let handlerCallback: SoupServerCallback = { _, message, path, query, data in
    guard let message, let data else { return }
    let request = SoupRequest(message: message, query: SoupRequest.query(query))
    Unmanaged<DelegateBox>.fromOpaque(data).takeUnretainedValue().delegate?.handle(
        path: path.map { String(cString: $0) } ?? "", request: request)
}

private let earlyHandlerCallback: SoupServerCallback = { _, message, path, query, data in
    guard let message, let data else { return }
    let request = SoupRequest(message: message, query: SoupRequest.query(query))
    Unmanaged<DelegateBox>.fromOpaque(data).takeUnretainedValue().delegate?.handleEarly(
        path: path.map { String(cString: $0) } ?? "", request: request)
}
