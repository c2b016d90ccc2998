import Foundation
import ShareSheet
import UniformTypes

/// Turns what front ends receive into items, checking that files can be read and sniffing
/// bytes: a PNG piped in is an image, a PDF a PDF document, UTF-8 text is text.
///
/// Errors are `ShareError`s whose message starts with the item's label and says the reason
/// ("photo.jpg: no such file"); front ends add their own prefix.
public struct ItemResolver: Sendable {
    /// Where relative paths start.
    public var currentDirectory: String
    /// The descriptor the `-` item reads: standard input.
    public var standardInput: Int32
    /// The most bytes `-` may bring.
    public var standardInputLimit: StandardInputLimit
    /// Where standard input is spooled; nil for `$TMPDIR`, else `/tmp`.
    public var temporaryDirectory: URL?
    /// How to show operands that stand in for another name: the front end's stand-in path for
    /// a file name that is not UTF-8, shown as that name (its bad bytes as U+FFFD) instead.
    public var labels: [String: String] = [:]

    /// Up to this many bytes, standard input is read into memory and becomes text, an image or
    /// data as it is sniffed; past it, it stays in its spooled file, shared as a file. 4 MiB:
    /// more text than anyone types or pastes, and a screenshot or a scanned page or two.
    public static let inMemoryLimit = 4 << 20

    /// Makes a resolver for paths relative to `currentDirectory`.
    public init(
        currentDirectory: String = FileManager.default.currentDirectoryPath, standardInput: Int32 = STDIN_FILENO,
        standardInputLimit: StandardInputLimit = .default, temporaryDirectory: URL? = nil, labels: [String: String] = [:]
    ) {
        self.currentDirectory = currentDirectory
        self.standardInput = standardInput
        self.standardInputLimit = standardInputLimit
        self.temporaryDirectory = temporaryDirectory
        self.labels = labels
    }

    /// URL schemes taken as links even without `//` (RFC 6068 `mailto:`, RFC 5724 `sms:`…).
    public static let opaqueSchemes: Set<String> = [
        "mailto", "sms", "smsto", "mms", "tel", "geo", "maps", "facetime", "facetime-audio", "callto", "sip",
        "sips", "xmpp", "matrix", "magnet", "news", "urn", "data", "bitcoin", "webcal", "skype", "javascript",
    ]

    /// Resolves every item in order. Items backed by a private file (`spooledFile`) are the
    /// caller's to remove when the share ends; when resolving fails, nothing is left.
    /// - Throws: a `ShareError` naming the first item that cannot be used; `.cancelled` when
    ///   the task is cancelled while standard input is read.
    public func resolve(_ inputs: [ShareItemInput]) async throws -> [ResolvedItem] {
        if inputs.filter({ $0 == .standardInput }).count > 1 {
            throw ShareError(.usage, "- (standard input) can be given only once")
        }
        var items: [ResolvedItem] = []
        do {
            for input in inputs { items.append(try await resolve(input)) }
        } catch {
            items.removeSpooledFiles()
            throw error
        }
        return items
    }

    /// Resolves one item; when it has a `spooledFile`, the caller removes it.
    public func resolve(_ input: ShareItemInput) async throws -> ResolvedItem {
        switch input {
        case .standardInput: return try await standardInputItem()
        case .text(let text): return ResolvedItem(value: text, label: Self.quotedLabel(text))
        case .fileDescriptor(let descriptor, let name, let mimeType):
            let label = name.map(FileNames.shown) ?? "descriptor \(descriptor)"
            let data: Data
            do {
                data = try DescriptorReader.readAll(descriptor)
            } catch {
                throw ShareError(.ioError, "\(label): cannot read: \(Self.describe(error))")
            }
            return try bytesItem(data, label: label, name: name, mimeType: mimeType, emptyMessage: "nothing to read")
        case .bytes(let data, let name, let mimeType):
            return try bytesItem(
                data, label: name.map(FileNames.shown) ?? "data", name: name, mimeType: mimeType, emptyMessage: "no bytes")
        case .operand(let operand): return try item(for: operand)
        }
    }

    // MARK: Standard input

    /// Standard input streamed into a private file (never more than `standardInputLimit`);
    /// small input is then read back and sniffed as `bytesItem` does, larger input stays a file
    /// named `stdin.EXT` (the extension from its first bytes) that the item owns.
    func standardInputItem() async throws -> ResolvedItem {
        let job = SpoolJob(
            descriptor: standardInput, name: nil, mimeType: nil, limit: standardInputLimit.byteCount,
            parent: temporaryDirectory ?? DescriptorSpooler.defaultTemporaryDirectory, givenLabel: "-",
            limitMessage: standardInputLimit.exceededMessage)
        let spooled: SpooledFile
        do {
            spooled = try await DescriptorSpooler.spool(job)
        } catch is CancellationError {
            throw ShareError(.cancelled, "-: reading standard input was interrupted")
        }
        if spooled.byteCount <= Int64(Self.inMemoryLimit) {
            defer { spooled.remove() }
            let data: Data
            do {
                data = try Data(contentsOf: spooled.url)
            } catch {
                throw ShareError(.ioError, "-: cannot read standard input: \(Self.describe(error))")
            }
            return try bytesItem(data, label: "-", name: nil, mimeType: nil, emptyMessage: "standard input is empty")
        }
        let file = spooled.url.deletingLastPathComponent()
            .appendingPathComponent("stdin." + (spooled.type.preferredFilenameExtension ?? "bin"), isDirectory: false)
        guard rename(spooled.url.path, file.path) == 0 else {
            let code = errno
            spooled.remove()
            throw ShareError(.ioError, "-: cannot name the copy of standard input: \(Self.describe(errno: code))")
        }
        let named = SpooledFile(url: file, byteCount: spooled.byteCount, type: spooled.type)
        // It goes when the share ends: an activity that hands its path on (Copy) keeps a copy.
        ShareScopedFiles.register(folder: file.deletingLastPathComponent())
        return ResolvedItem(value: file, label: "-", spooledFile: named)
    }

    static func quotedLabel(_ text: String) -> String {
        let oneLine = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return "\"" + (oneLine.count > 30 ? oneLine.prefix(29) + "…" : oneLine) + "\""
    }

    // MARK: Bytes

    /// Bytes as text when they are UTF-8 without NUL bytes (and no type says otherwise), as an
    /// image when they are one, else as named, typed data.
    func bytesItem(_ data: Data, label: String, name: String?, mimeType: String?, emptyMessage: String) throws
        -> ResolvedItem
    {
        if data.isEmpty { throw ShareError(.noInput, "\(label): \(emptyMessage)") }
        let declared = mimeType.flatMap { UTType(mimeType: $0) }
        let sniffed = UTType.type(ofData: data)
        // The content's own signature (a PDF's %PDF-, a PNG's header) beats everything; text is
        // what is left when nothing but text was found and nobody said otherwise.
        let contentSaysNothing = sniffed == .data || sniffed.conforms(to: .text)
        let saysText = declared.map { $0.conforms(to: .plainText) } ?? (name == nil)
        if contentSaysNothing, saysText, !data.contains(0), let text = String(validating: Array(data), as: UTF8.self) {
            // `echo hello | share -` shares "hello", not "hello\n".
            var body = Substring(text)
            if body.hasSuffix("\r\n") { body = body.dropLast(2) } else if body.hasSuffix("\n") { body = body.dropLast() }
            if body.isEmpty { throw ShareError(.noInput, "\(label): \(emptyMessage)") }
            return ResolvedItem(value: String(body), label: label)
        }
        let type = contentSaysNothing ? (declared ?? sniffed) : sniffed
        if type.conforms(to: .image) { return ResolvedItem(value: Image(data: data, type: type), label: label) }
        let filename = name.map(Self.safeFilename) ?? "stdin." + (type.preferredFilenameExtension ?? "bin")
        return ResolvedItem(value: DataItem(data: data, filename: filename, typeIdentifier: type.identifier), label: label)
    }

    /// A sender's file name without folders or control characters; a line break becomes a
    /// space (`FileNames.sendable`), so `q3⏎final.pdf` stays two words.
    public static func safeFilename(_ name: String) -> String {
        let last = name.split(separator: "/").last.map(String.init) ?? ""
        let cleaned = FileNames.sendable(last)
        return cleaned.trimmingCharacters(in: .whitespaces).isEmpty || cleaned == "." || cleaned == ".." ? "item" : cleaned
    }

    // MARK: Paths and URLs

    /// A path, a `file://` URL, a web link or another scheme's link. A path is labelled as
    /// `labels` says, else as typed with its line breaks escaped (`FileNames.shown`).
    public func item(for operand: String) throws -> ResolvedItem {
        // An empty word (an unset shell variable, say) names nothing; read as a path it would
        // be the current folder.
        guard !operand.isEmpty else { throw ShareError(.noInput, "an empty argument names no file or link") }
        let label = labels[operand] ?? FileNames.shown(operand)
        let path = absolutePath(operand)
        if let scheme = Self.scheme(of: operand), access(path, F_OK) != 0 {
            if scheme == "file" {
                guard let url = URL(string: operand), url.host == nil || url.host == "" || url.host == "localhost",
                    !url.path.isEmpty
                else { throw ShareError(.badData, "\(label): not a local file URL") }
                return try fileItem(path: url.path, label: label)
            }
            if let link = try Self.link(operand, scheme: scheme) { return link }
        }
        return try fileItem(path: path, label: label)
    }

    /// A web link or another scheme's link (not `file:`), never looked up as a path; nil when
    /// `text` does not read as one (`scheme:` alone, say).
    public static func link(_ text: String, scheme: String) throws -> ResolvedItem? {
        switch scheme {
        case "http", "https":
            guard let url = URL(string: text), let host = url.host, !host.isEmpty else {
                throw ShareError(.badData, "\(text): not a valid web address")
            }
            return ResolvedItem(value: url, label: text)
        default:
            guard text.contains("://") || opaqueSchemes.contains(scheme) else { return nil }
            guard let url = URL(string: text), url.scheme != nil else {
                throw ShareError(.badData, "\(text): not a valid URL")
            }
            return ResolvedItem(value: url, label: text)
        }
    }

    /// The lowercased scheme when `text` starts like a URL (`letter (letter|digit|+|-|.)* :`).
    public static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return scheme.lowercased()
    }

    private func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : (currentDirectory as NSString).appendingPathComponent(path)
    }

    /// Checks that the file is a regular file that can be opened and read, with one `open` and
    /// one `fstat` (no `stat` by path first: each stat of a shared file counts, see BENCHMARKS.md).
    func fileItem(path: String, label: String) throws -> ResolvedItem {
        let full = absolutePath(path)
        let descriptor = open(full, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if descriptor < 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw ShareError(.noInput, "\(label): no such file") }
            throw ShareError(.noInput, "\(label): " + Self.describe(errno: code))
        }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) != 0 { throw ShareError(.noInput, "\(label): " + Self.describe(errno: errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            // Activities take files; the shell names the files in a folder in one word.
            let folder = label.hasSuffix("/") && label.count > 1 ? String(label.dropLast()) : label
            throw ShareError(.noInput, "\(label): is a folder; give the files in it instead (\(folder)/*)")
        case S_IFREG: break
        default: throw ShareError(.noInput, "\(label): not a regular file")
        }
        var byte: UInt8 = 0
        if read(descriptor, &byte, 1) < 0 { throw ShareError(.noInput, "\(label): " + Self.describe(errno: errno)) }
        // isDirectory: false, or Foundation would stat the path again to find out.
        return ResolvedItem(value: URL(fileURLWithPath: full, isDirectory: false).standardizedFileURL, label: label)
    }

    /// "permission denied", "input/output error": `strerror` in lower case.
    public static func describe(errno code: Int32) -> String {
        if code == EACCES || code == EPERM { return "permission denied" }
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// An error in the same words as `describe(errno:)` when it is a POSIX one.
    public static func describe(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return describe(errno: posix.code.rawValue) }
        return (error as NSError).localizedDescription
    }
}

/// Reads descriptors to their end.
public enum DescriptorReader {
    /// Reads `descriptor` to its end, retrying interrupted reads; never closes it.
    public static func readAll(_ descriptor: Int32) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    // A non-blocking pipe with nothing yet: wait for it instead of spinning.
                    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    _ = poll(&poller, 1, -1)
                    continue
                }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            data.append(contentsOf: buffer[0..<count])
        }
    }
}
