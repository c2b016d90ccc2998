import Foundation
import Nearby
import ShareSheet
import ShareSheetSystem
import ShareSheetTerminal

/// `share receive`: a LocalSend receiver, so another Linux machine's `share --activity airdrop`
/// (or a phone running LocalSend) can send files here. Files go into the XDG Download folder.
enum ReceiveCommand: ShareSubcommand {
    static let spec = CommandSpec(
        name: "receive", summary: "receive files over LocalSend (AirDrop) into Downloads",
        about: "Receives files and messages over LocalSend (what AirDrop uses here) from phones and computers "
            + "running LocalSend or `share --activity airdrop`. Received files' paths go to standard output; "
            + "offers, refusals and the end of each transfer go to standard error. Without a terminal, offers "
            + "are declined unless --accept-all is given.",
        options: [
            .flag("--accept-all", "accept every offer without asking"),
            .value("--pin", "PIN", "senders must give this PIN"),
            .value("--port", "N", "the TCP port (default 53317)"),
            .flag("--once", "end after the first transfer (exit 0 when it completed)"),
            .value("--folder", "DIR", "where files go (default: the Download folder)", kind: .directory),
            .value("--timeout", "SECONDS", "cut off a sender that sends nothing for this long (default 30)"),
            ShareOptions.quiet, ShareOptions.verbose,
        ],
        examples: ["share receive --once --accept-all --folder ~/Inbox"])

    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination {
        let parsed = try options(arguments)
        if let extra = parsed.operands.first { throw ShareError(.usage, "receive: unexpected argument '\(extra)'") }
        let directories = XDGDirectories(environment: context.environment)
        var options = NearbyReceiver.Options(folder: directories.userDirectory(.download))
        let onlyOnce = parsed.flag("--once")
        options.acceptAll = parsed.flag("--accept-all")
        if let pin = parsed.value("--pin") { options.pin = pin }
        if let folder = parsed.value("--folder") {
            options.folder = URL(fileURLWithPath: folder, relativeTo: URL(fileURLWithPath: context.currentDirectory, isDirectory: true))
                .standardizedFileURL
        }
        if let text = parsed.value("--port") {
            guard let port = UInt16(text) else { throw ShareError(.usage, "receive: --port needs a port number, got '\(text)'") }
            options.port = port
        }
        if let text = parsed.value("--timeout") {
            guard let seconds = UInt32(text), seconds > 0 else {
                throw ShareError(.usage, "receive: --timeout needs a number of seconds, got '\(text)'")
            }
            options.timeout = seconds
        }
        let configuration = try Configuration.load(from: directories)
        let settings = NearbySettings(configuration: configuration, environment: context.environment)
        options.announces = settings.discoveryEnabled
        options.steps = VerboseLog.make(parsed.flag("--verbose"), context: context)
        let identity = try NearbyIdentity.loadOrCreate(in: NearbyIdentity.folder(directories))

        // Without a terminal nobody can be asked: offers are declined unless --accept-all.
        let canAsk = context.standardInputIsTerminal
        let once = onlyOnce
        let output = SendableOutput(context)
        let ended = AsyncStream<Bool>.makeStream()
        let receiver = NearbyReceiver(
            settings: settings, identity: identity, options: options,
            decide: { offer in
                guard canAsk else {
                    output.error("declined \(describe(offer)): no terminal to ask (use --accept-all)\n")
                    return false
                }
                output.error("Accept \(describe(offer))? [y/N] ")
                let answer = readLine() ?? ""
                return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
            },
            onEvent: { event in
                switch event {
                case .received(let url, _): output.out(url.path + "\n")
                case .text(let text, let sender): output.out("\(sender): \(text)\n")
                case .declined: if once { ended.continuation.yield(false) }
                case .sessionEnded(let sender, let completed):
                    output.error(completed ? "received everything from \(sender)\n" : "the transfer from \(sender) did not complete\n")
                    if once { ended.continuation.yield(completed) }
                case .refused(let request, let host, let status, let reason):
                    output.error("refused \(request) from \(host)\(status > 0 ? " (\(status))" : ""): \(reason)\n")
                }
                if once, case .text = event { ended.continuation.yield(true) }
            })
        try receiver.start()
        // Each incoming file's bytes on a terminal; the lines the receiver prints erase it first.
        let progressLine =
            context.standardErrorIsTerminal && !parsed.flag("--quiet")
            ? ActivityProgressLine(
                source: { [weak receiver] in
                    receiver?.currentTransfer.map { (title: $0.fileName, progress: $0.progress) }
                }, output: context.standardError,
                style: context.style(forTerminal: true, descriptor: STDERR_FILENO)) : nil
        progressLine?.start()
        defer { progressLine?.stop() }
        output.error(
            "receiving as \"\(settings.alias)\" on port \(receiver.port) (fingerprint \(identity.fingerprint)), "
                + "into \(options.folder.path)\(settings.discoveryEnabled ? "" : ", discovery off")\n")

        // Ctrl-C or SIGTERM ends it; so does the end of one session with --once.
        let signals = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { ended.continuation.yield(false) }
            source.resume()
            return source
        }
        var completed = false
        for await result in ended.stream {
            completed = result
            break
        }
        signals.forEach { $0.cancel() }
        receiver.stop()
        if once { return completed ? .success : Termination(status: 1, message: nil) }
        return Termination(status: Termination.dismissedStatus, message: nil)
    }

    private nonisolated static func describe(_ offer: NearbyOffer) -> String {
        if offer.text != nil { return "a message from \(offer.sender.alias) (\(offer.host))" }
        let bytes = offer.files.reduce(Int64(0)) { $0 + $1.size }
        let names = offer.files.prefix(3).map(\.name).joined(separator: ", ") + (offer.files.count > 3 ? ", …" : "")
        return "\(offer.files.count) file(s), \(bytes) bytes, from \(offer.sender.alias) (\(offer.host)): \(names)"
    }
}

/// Writes to the command's streams from the receiver's threads. On a terminal each write first
/// erases the progress line, which its next redraw puts back below.
private final class SendableOutput: @unchecked Sendable {
    private let lock = NSLock()
    private let eraseOut: String
    private let eraseError: String

    init(_ context: CommandContext) {
        eraseOut = context.standardOutputIsTerminal && context.standardErrorIsTerminal ? "\r\u{1B}[K" : ""
        eraseError = context.standardErrorIsTerminal ? "\r\u{1B}[K" : ""
    }

    func out(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        FileHandle.standardOutput.write(Data((eraseOut + text).utf8))
    }

    func error(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        FileHandle.standardError.write(Data((eraseError + text).utf8))
    }
}
