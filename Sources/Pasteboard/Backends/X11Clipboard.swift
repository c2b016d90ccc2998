import Foundation
import ShareSheet

/// The X11 CLIPBOARD selection (`DISPLAY`).
///
/// An X11 selection is served by a process that owns it and answers each request for a target.
/// `xclip` and `xsel` serve one target per process, so they cannot offer an image as both
/// `image/jpeg` and `image/png`, or a link as both `text/uri-list` and text. Copying therefore
/// starts `sharesheet-clipboard-owner` (ShareSheet's own owner, built with this package): it
/// takes every representation at once, offers them all in `TARGETS` (with the `UTF8_STRING`,
/// `STRING` and `TEXT` aliases for text), sends large ones incrementally (INCR), tells this
/// process when it owns the selection, and exits when another program takes it.
/// Without the helper, `xclip` (then `xsel`, text only) serves the item's best representation.
/// Reading goes through `xclip -o` (or `xsel -o` for text).
public struct X11Clipboard: PasteboardBackend {
    /// The display.
    public let display: String
    private let environment: [String: String]
    private let owner: String?
    private let xclip: String?
    private let xsel: String?

    /// Where the owner helper is looked for: `SHARESHEET_CLIPBOARD_OWNER` (set to anything but
    /// an executable, such as `none`, to use `xclip` instead), next to the running executable,
    /// then on `PATH`.
    public static func ownerHelper(environment: [String: String]) -> String? {
        if let given = environment["SHARESHEET_CLIPBOARD_OWNER"], !given.isEmpty {
            return FileManager.default.isExecutableFile(atPath: given) ? given : nil
        }
        let name = "sharesheet-clipboard-owner"
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            let candidate = executable.deletingLastPathComponent().appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return Subprocess.find(name, environment: environment)
    }

    /// The X11 clipboard of `DISPLAY`, or nil without a display or without any way to own it.
    public init?(environment: [String: String]) {
        guard let display = environment["DISPLAY"], !display.isEmpty else { return nil }
        self.display = display
        self.environment = environment
        owner = Self.ownerHelper(environment: environment)
        xclip = Subprocess.find("xclip", environment: environment)
        xsel = Subprocess.find("xsel", environment: environment)
        guard owner != nil || xclip != nil || xsel != nil else { return nil }
    }

    public var name: String {
        let tool = owner != nil ? "sharesheet-clipboard-owner" : xclip != nil ? "xclip" : "xsel"
        return "X11 clipboard (DISPLAY=\(display), \(tool))"
    }

    /// The process ID of the owner started by the last `write`, for those who must stop it.
    public static var lastOwnerProcessID: pid_t? { lastOwner.withLock { $0 } }
    private static let lastOwner = Locked<pid_t?>(nil)

    public func write(_ items: [PasteboardItem]) throws {
        try write(items, kept: nil)
    }

    public func write(_ items: [PasteboardItem], keeping files: ClipboardFiles) throws {
        try write(items, kept: files)
    }

    /// How long the owner may take to say it owns the selection before Copy gives up on it.
    static let confirmationTimeout: Double = 5

    private func write(_ items: [PasteboardItem], kept files: ClipboardFiles?) throws {
        let item = PasteboardItem.merged(items)
        guard !item.representations.isEmpty else { throw ShareError(.usage, "pasteboard: nothing to copy") }
        let lock = files?.lockDescriptor
        if let owner {
            try serve(item, with: owner, keeping: files)
        } else if let xclip {
            let best = item.representations[0]
            try startDetached(xclip, ["-selection", "clipboard", "-t", best.type, "-i"], input: best.data, inherited: lock)
            try awaitOwner(serving: best.type, data: best.data)
        } else if let xsel, let text = Pasteboard.textTypes.lazy.compactMap(item.data(forType:)).first {
            try startDetached(xsel, ["--clipboard", "--input"], input: text, inherited: lock)
            try awaitOwner(serving: PasteboardItem.utf8Text, data: text)
        } else {
            throw ShareError(.unavailable, "X11 clipboard: xsel copies only text; install xclip")
        }
    }

    /// Hands every representation to a new owner and waits until it owns the selection: it
    /// says "ready" only after `XGetSelectionOwner` named it, so a paste right after a copy that
    /// reported success finds it. An owner that says nothing within `confirmationTimeout` is
    /// stopped and the copy fails.
    private func serve(_ item: PasteboardItem, with helper: String, keeping files: ClipboardFiles?) throws {
        var payload = Data()
        for representation in item.representations {
            let type = Data(representation.type.utf8)
            payload.append(contentsOf: Self.bigEndian(UInt32(type.count)))
            payload.append(type)
            payload.append(contentsOf: Self.bigEndian(UInt64(representation.data.count)))
            payload.append(representation.data)
        }
        let input = try Subprocess.makePipe()
        let output = try Subprocess.makePipe()
        let pid: pid_t
        do {
            pid = try Subprocess.spawn(
                helper, ["--display", display] + (files.map { ["--keep", $0.folder.path] } ?? []), environment: environment,
                standardInput: input.read, standardOutput: output.write, standardError: output.write, newSession: true,
                inherited: files?.lockDescriptor)
        } catch {
            [input.read, input.write, output.read, output.write].forEach { close($0) }
            throw error
        }
        close(input.read)
        close(output.write)
        // The whole exchange, handing over the representations and hearing "ready", has one
        // deadline: an owner that stops reading (or never answers) cannot hold Copy.
        let deadline = Date().addingTimeInterval(Self.confirmationTimeout)
        _ = fcntl(input.write, F_SETFL, fcntl(input.write, F_GETFL) | O_NONBLOCK)
        let written = payload.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(input.write, bytes.baseAddress! + offset, bytes.count - offset)
                if count >= 0 {
                    offset += count
                    continue
                }
                guard errno == EINTR || errno == EAGAIN else { return false }
                var waiting = pollfd(fd: input.write, events: Int16(POLLOUT), revents: 0)
                if poll(&waiting, 1, Int32(max(0, deadline.timeIntervalSinceNow) * 1000)) == 0 { return false }
            }
            return true
        }
        close(input.write)
        // The helper answers one line: "ready" once it owns the selection, or why it cannot.
        var answer = Data()
        var timedOut = !written && Date() >= deadline
        var byte: UInt8 = 0
        while !timedOut {
            var waiting = pollfd(fd: output.read, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, Int32(max(0, deadline.timeIntervalSinceNow) * 1000))
            if ready < 0, errno == EINTR { continue }
            if ready == 0 {
                timedOut = true
                break
            }
            let count = read(output.read, &byte, 1)
            if count < 0, errno == EINTR { continue }
            if count <= 0 || byte == UInt8(ascii: "\n") { break }
            answer.append(byte)
        }
        close(output.read)
        let line = String(decoding: answer, as: UTF8.self)
        guard written, !timedOut, line == "ready" else {
            kill(pid, SIGKILL)
            _ = Subprocess.wait(pid)
            let reason =
                timedOut
                ? "the clipboard owner did not confirm within \(Int(Self.confirmationTimeout)) s that it holds the clipboard, so nothing was copied"
                : line.isEmpty ? "the clipboard owner failed" : line
            throw ShareError(.unavailable, "X11 clipboard (DISPLAY=\(display)): " + reason)
        }
        Self.lastOwner.withLock { $0 = pid }
        // Reap it when it exits (another program took the clipboard), so it leaves no zombie.
        Thread.detachNewThread { _ = Subprocess.wait(pid) }
    }

    /// Starts xclip or xsel, which fork an owner of their own and return.
    private func startDetached(_ tool: String, _ arguments: [String], input: Data, inherited: Int32?) throws {
        let (status, message) = try Subprocess.runForking(tool, arguments, input: input, environment: environment, inherited: inherited)
        guard status == 0 else {
            throw ShareError(.unavailable, "X11 clipboard: \((tool as NSString).lastPathComponent): \(message)")
        }
    }

    /// xclip and xsel take the selection in the copy they fork, after the command returned:
    /// wait (up to 5 s) until the clipboard serves the new bytes, so a paste right after a copy
    /// gets them.
    private func awaitOwner(serving type: String, data: Data) throws {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if try self.data(forType: type) == data { return }
            usleep(20_000)
        }
        throw ShareError(.temporaryFailure, "X11 clipboard (DISPLAY=\(display)): the copy did not take the clipboard")
    }

    public func types() throws -> [String] {
        guard let xclip else {
            return try data(forType: PasteboardItem.utf8Text) == nil ? [] : [PasteboardItem.utf8Text]
        }
        let result = try Subprocess.run(xclip, ["-o", "-selection", "clipboard", "-t", "TARGETS"], environment: environment)
        guard result.status == 0 else { return [] }
        return String(decoding: result.standardOutput, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
            .filter { !["TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS"].contains($0) }
    }

    public func data(forType type: String) throws -> Data? {
        if let xclip {
            guard try types().contains(type) else { return nil }
            let result = try Subprocess.run(xclip, ["-o", "-selection", "clipboard", "-t", type], environment: environment)
            return result.status == 0 ? result.standardOutput : nil
        }
        guard let xsel, Pasteboard.textTypes.contains(type) else { return nil }
        let result = try Subprocess.run(xsel, ["--clipboard", "--output"], environment: environment)
        return result.status == 0 && !result.standardOutput.isEmpty ? result.standardOutput : nil
    }

    private static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }
}
