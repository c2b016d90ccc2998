import CGIO
import DBus
import GVariants
import GLibErrors
import Glibc
import ShareServiceProtocol

/// The share service's front: owns `org.sharesheet.ShareSheet` from the moment the bus starts
/// it, answers `Share` at once with the request's handle, and keeps every call until the
/// service proper (`share --service`, started beside it) is ready.
///
/// Why a front: `share` names over a hundred shared libraries (GTK, curl, CUPS, GMime…), and
/// loading them takes most of the cold start; the front loads GIO only. The handover:
/// 1. the front owns the name, allowing replacement, then starts `share --service` with one
///    end of a socket pair (after, so the name can only pass from the front to it);
/// 2. `share` takes the name over (replacing the front), then connects to the front over the
///    socket pair (peer-to-peer D-Bus, `WorkerInterfaceXML`);
/// 3. the front passes on every call it took, with the caller's name and descriptors: `share`
///    serves those requests as its own (object, caller watch, `Response`), and the front relays
///    `ListActivities` and `ListSuggestions` replies;
/// 4. with nothing left to pass on, the front ends.
/// If `share` cannot start, every request the front answered gets `Response` 2 saying why.
///
/// Everything runs on the main thread, inside GLib's main loop.
final class ServiceFront {
    /// A call the front took and has not yet passed on.
    enum Pending {
        /// A `Share` the front answered with `path`; `parameters` is the service's
        /// `(s sender, o handle, s parent_window, aa{sv} items, a{sv} options)`.
        case share(sender: String, path: String, parameters: GVariant, descriptors: DBusFileDescriptors?)
        /// A `ListActivities` or `ListSuggestions` (`method`) waiting for its reply; `parameters`
        /// is `(s sender, aa{sv}, a{sv})`.
        case list(method: String, invocation: DBusMethodInvocation, parameters: GVariant, descriptors: DBusFileDescriptors?)
        /// A `Close` of the request at `path` by its caller.
        case close(sender: String, path: String)
    }

    private let bus: DBusConnection
    private let interfaces: DBusInterfaceDescription
    private let loop: OpaquePointer
    /// The peer-to-peer connection to `share --service`, once it has connected.
    private var worker: DBusConnection?
    /// Why `share --service` will never connect.
    private var workerFailure: String?
    private var pending: [Pending] = []
    /// Calls passed on whose reply has not come yet.
    private var inFlight = 0
    private var ownedName = false
    private var lostName = false
    /// The request objects the front made: path → the caller and the registration.
    private var requests: [String: (sender: String, registration: DBusRegistration)] = [:]
    private var generatedTokens = 0
    private var ending = false
    private var status: Int32 = 0

    private init(bus: DBusConnection, interfaces: DBusInterfaceDescription) {
        self.bus = bus
        self.interfaces = interfaces
        self.loop = g_main_loop_new(nil, 0)
    }

    /// Serves until the service has taken everything over; returns the exit status.
    static func run() -> Int32 {
        let interfaces: DBusInterfaceDescription
        do throws(GLibError) {
            interfaces = try DBusInterfaceDescription(xml: InterfaceXML.text)
        } catch {
            warn("the interface description does not parse: \(error.message)")
            return 70
        }
        let bus: DBusConnection
        do throws(GLibError) {
            bus = try DBusConnection.session()
        } catch {
            warn("no session bus to serve on (DBUS_SESSION_BUS_ADDRESS): \(error.message)")
            return 69
        }
        // The front lives until the process ends: the bus's callbacks hold it.
        let front = ServiceFront(bus: bus, interfaces: interfaces)
        guard front.serve() else { return 70 }
        _ = bus.own(
            name: ServiceNames.busName, flags: [.allowReplacement, .doNotQueue], acquired: { front.nameAcquired() },
            lost: { front.nameLost() })
        g_main_loop_run(front.loop)
        return front.status
    }

    // MARK: The service proper

    /// Starts `share --service` with one end of a socket pair, and waits for it on the other.
    private func startWorker() {
        let data = Unmanaged.passUnretained(self).toOpaque()
        guard let program = WorkerProgram.path() else {
            workerFailure = "cannot find the share program beside \(WorkerProgram.frontPath()) or in ../bin"
            return
        }
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            workerFailure = "cannot make a socket pair for \(program): \(String(cString: strerror(errno)))"
            return
        }
        switch WorkerProgram.spawn(program, arguments: ["--service"], passing: ends[1]) {
        case .success: break
        case .failure(let reason):
            close(ends[0])
            workerFailure = "cannot start \(program): \(reason)"
            return
        }
        do throws(GLibError) {
            try DBusConnection.peerServer(socket: ends[0]) { [self] made in
                switch made {
                case .success(let connection): workerConnected(connection, error: nil)
                case .failure(let error): workerConnected(nil, error: error.message)
                }
            }
        } catch {
            close(ends[0])
            workerFailure = "cannot use the socket to \(program): \(error.message)"
            return
        }
        // A share that neither connects nor ends (stuck loading, say) must not leave callers
        // waiting on a front that holds the name forever.
        g_timeout_add_seconds(Self.takeOverSeconds, takeOverDeadline, data)
    }

    /// How long `share --service` has to take over before the front gives up on it.
    static let takeOverSeconds: guint = 30

    func takeOverDeadlinePassed() {
        guard worker == nil, workerFailure == nil else { return }
        workerFailure = "the share program in service mode did not take over within \(Self.takeOverSeconds) s"
        passOn()
    }

    func workerConnected(_ connection: DBusConnection?, error: String?) {
        if let connection {
            worker = connection
        } else {
            workerFailure = "the share program in service mode ended before it could take the calls over\(error.map { " (\($0))" } ?? "")"
        }
        passOn()
    }

    // MARK: The bus

    /// Exports the service's object; false when it cannot be.
    private func serve() -> Bool {
        do throws(GLibError) {
            _ = try bus.register(
                path: ServiceNames.objectPath, interface: interface(ServiceNames.interface),
                methodCall: { [self] in handle($0) }, property: { $0 == "version" ? .uint32(ServiceNames.version) : nil })
            return true
        } catch {
            Self.warn("cannot serve \(ServiceNames.objectPath): \(error.message)")
            return false
        }
    }

    /// An interface of `InterfaceXML`, which names every one the front asks for.
    private func interface(_ name: String) -> DBusInterface { interfaces.interface(name)! }

    func nameAcquired() {
        ownedName = true
        startWorker()
        passOn()
    }

    func nameLost() {
        lostName = true
        // Another service had the name already: it serves, and nothing was taken here.
        guard ownedName else { return end(status: 0) }
        endWhenDone()
    }

    func handle(_ invocation: DBusMethodInvocation) {
        let sender = invocation.sender
        let path = invocation.path
        switch (path, invocation.method) {
        case (ServiceNames.objectPath, "Share"):
            share(invocation)
        case (ServiceNames.objectPath, "ListActivities"), (ServiceNames.objectPath, "ListSuggestions"):
            // The caller's arguments as they came, after its name (WorkerInterfaceXML).
            let forwarded = GVariant.tuple([.string(sender)] + invocation.arguments)
            take(
                .list(
                    method: invocation.method, invocation: invocation, parameters: forwarded,
                    descriptors: invocation.descriptors))
        case (_, "Close"):
            guard let request = requests[path] else {
                return invocation.returnError(DBusErrorName.unknownObject, "this request has ended")
            }
            guard request.sender == sender else {
                return invocation.returnError(DBusErrorName.accessDenied, "only the caller that made this request may close it")
            }
            invocation.returnValue()
            take(.close(sender: sender, path: path))
        default:
            invocation.returnError(DBusErrorName.unknownMethod, "no method \(invocation.method)")
        }
    }

    /// Answers `Share` with its request's path at once; the service does the rest.
    private func share(_ invocation: DBusMethodInvocation) {
        let sender = invocation.sender
        // Only the token is read here; the service reads the rest, and says what is wrong with it.
        let options = invocation.arguments[2]
        var token: String?
        if let value = options.lookup("handle_token") {
            guard let text = value.string, value.typeString == "s", ServiceNames.isValidToken(text) else {
                return invalidArguments(invocation, ServiceNames.invalidTokenMessage)
            }
            token = text
        }
        if token == nil { generatedTokens += 1 }
        let path = ServiceNames.requestPath(
            sender: sender, token: token ?? ServiceNames.generatedToken(process: getpid(), number: generatedTokens))
        guard requests[path] == nil else {
            return invalidArguments(invocation, "handle_token \(token ?? "") is in use by another request of yours")
        }
        guard
            let registration = try? bus.register(
                path: path, interface: interface(ServiceNames.requestInterface), methodCall: { [self] in handle($0) })
        else {
            return invalidArguments(invocation, "cannot make the request object \(path)")
        }
        requests[path] = (sender, registration)
        invocation.returnValue(.tuple([.objectPath(path)]))
        let forwarded = GVariant.tuple([.string(sender), .objectPath(path)] + invocation.arguments)
        take(.share(sender: sender, path: path, parameters: forwarded, descriptors: invocation.descriptors))
    }

    private func invalidArguments(_ invocation: DBusMethodInvocation, _ message: String) {
        invocation.returnError(DBusErrorName.invalidArgs, message)
    }

    // MARK: Passing calls on

    private func take(_ call: Pending) {
        pending.append(call)
        passOn()
    }

    /// Passes every pending call to the service, or fails them when it will never come.
    private func passOn() {
        guard worker != nil || workerFailure != nil else { return }
        let calls = pending
        pending.removeAll()
        for call in calls {
            if let worker { send(call, to: worker) } else { fail(call, workerFailure ?? "") }
        }
        endWhenDone()
    }

    private func send(_ call: Pending, to worker: DBusConnection) {
        let method: String
        let parameters: GVariant
        var descriptors: DBusFileDescriptors?
        switch call {
        case .share(_, _, let values, let fds): (method, parameters, descriptors) = ("Share", values, fds)
        case .list(let name, _, let values, let fds): (method, parameters, descriptors) = (name, values, fds)
        case .close(let sender, let path):
            method = "Close"
            parameters = .tuple([.string(sender), .objectPath(path)])
        }
        inFlight += 1
        worker.call(
            nil, path: ServiceNames.objectPath, interface: WorkerInterfaceXML.interface, method: method, arguments: parameters,
            descriptors: descriptors
        ) { [self] reply in
            switch reply {
            case .success(let value): passedOn(call, reply: value, error: nil)
            case .failure(let error): passedOn(call, reply: nil, error: error)
            }
        }
    }

    /// The service's reply to a call passed on: relayed for the listings; for `Share`, an
    /// error means the service did not take the request, so the caller hears it from here.
    private func passedOn(_ call: Pending, reply: GVariant?, error: GLibError?) {
        inFlight -= 1
        switch call {
        case .list(_, let invocation, _, _):
            if let reply {
                invocation.returnValue(reply)
            } else {
                invocation.returnError(relaying: error)
            }
        case .share(let sender, let path, _, _):
            if reply == nil { respondFailed(sender: sender, path: path, error?.message ?? "unknown error") }
        case .close: break
        }
        endWhenDone()
    }

    /// Ends a call that can no longer be passed on.
    private func fail(_ call: Pending, _ reason: String) {
        switch call {
        case .share(let sender, let path, _, _):
            respondFailed(sender: sender, path: path, reason)
        case .list(_, let invocation, _, _):
            invocation.returnError(DBusErrorName.failed, reason)
        case .close: break
        }
    }

    /// `Response` 2 to the request's caller, with the reason in the fields `share --json` uses.
    private func respondFailed(sender: String, path: String, _ reason: String) {
        let response = WireResponse(
            response: WireResponse.failed,
            results: WireResults(completed: false, errorCode: "temporary-failure", errorMessage: reason))
        try? bus.emitSignal(
            to: sender, path: path, interface: ServiceNames.requestInterface, signal: "Response", arguments: response.encode())
        if let request = requests.removeValue(forKey: path) { bus.unregister(request.registration) }
    }

    // MARK: The end

    /// Ends once the service has the name and every call taken here has been passed on, or when
    /// there will be no service and every call has been answered.
    private func endWhenDone() {
        guard pending.isEmpty, inFlight == 0 else { return }
        if workerFailure != nil {
            Self.warn(workerFailure ?? "")
            end(status: 1)
        } else if worker != nil, lostName {
            end(status: 0)
        }
    }

    /// Sends what is queued, then ends the main loop a moment later: calls the bus routed here
    /// before the handover are dispatched before the name-lost signal, so none is left behind.
    private func end(status: Int32) {
        guard !ending else { return }
        ending = true
        self.status = status
        if ownedName, !lostName { releaseName() }
        bus.flush()
        g_timeout_add(50, quitLoop, Unmanaged.passUnretained(self).toOpaque())
    }

    func quit() { g_main_loop_quit(loop) }

    /// Gives the name back before ending without a service to hand it to: a call the bus routes
    /// here after the loop has ended would never be answered (the caller gets NoReply once the
    /// process leaves the bus, seen when the exit is slow, as under the thread sanitizer); with
    /// the name free, the bus starts a fresh front for it. A call routed here before the release
    /// is still dispatched before the loop ends, and answered.
    private func releaseName() {
        do throws(GLibError) {
            _ = try bus.callSync(
                "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", method: "ReleaseName",
                arguments: .tuple([.string(ServiceNames.busName)]))
        } catch {
            Self.warn("cannot give the name back: \(error.message)")
        }
    }

    // MARK: Messages

    static func warn(_ message: String) {
        say("sharesheet-service: \(message)\n", to: STDERR_FILENO)
    }

}

/// Writes `text` to a descriptor whole (stdio's streams are shared mutable state to Swift 6).
func say(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        bytes = bytes.dropFirst(written)
    }
}
