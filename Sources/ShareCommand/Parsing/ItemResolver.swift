import Foundation
import ShareSheet
import UniformTypes

/// An item ready for the controller, with the name errors and listings use for it.
struct ResolvedItem {
    /// What the controller receives: a `URL`, a `String` or a `DataItem`.
    var value: Any
    /// The item as the person gave it (the path as typed, the URL, "-").
    var label: String
}

/// Turns ITEM operands and `--text` values into items, checking that files can be read.
struct ItemResolver {
    /// Where relative paths start.
    var currentDirectory: String
    /// Reads all of standard input.
    var readStandardInput: () throws -> Data

    /// URL schemes taken as links even without `//` (RFC 6068 `mailto:`, RFC 5724 `sms:`…).
    static let opaqueSchemes: Set<String> = [
        "mailto", "sms", "smsto", "mms", "tel", "geo", "maps", "facetime", "facetime-audio", "callto", "sip",
        "sips", "xmpp", "matrix", "magnet", "news", "urn", "data", "bitcoin", "webcal", "skype", "javascript",
    ]

    /// Resolves every item in order.
    /// - Throws: a `ShareError` naming the first item that cannot be used.
    func resolve(_ arguments: [Invocation.ItemArgument]) throws -> [ResolvedItem] {
        let stdinCount = arguments.filter { $0 == .operand("-") }.count
        if stdinCount > 1 { throw ShareError(.usage, "share: - (standard input) can be given only once") }
        return try arguments.map { argument in
            switch argument {
            case .text(let text): return ResolvedItem(value: text, label: ItemResolver.quotedLabel(text))
            case .operand("-"): return try standardInputItem()
            case .operand(let operand): return try item(for: operand)
            }
        }
    }

    private static func quotedLabel(_ text: String) -> String {
        let oneLine = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return "\"" + (oneLine.count > 30 ? oneLine.prefix(29) + "…" : oneLine) + "\""
    }

    // MARK: Standard input

    /// Standard input as text when it is UTF-8 without NUL bytes, else as named, typed data.
    func standardInputItem() throws -> ResolvedItem {
        let data: Data
        do {
            data = try readStandardInput()
        } catch {
            throw ShareError(.ioError, "share: -: cannot read standard input: \(Self.describe(error))")
        }
        if data.isEmpty { throw ShareError(.noInput, "share: -: standard input is empty") }
        if !data.contains(0), let text = String(validating: Array(data), as: UTF8.self) {
            // `echo hello | share -` shares "hello", not "hello\n".
            var body = Substring(text)
            if body.hasSuffix("\r\n") { body = body.dropLast(2) } else if body.hasSuffix("\n") { body = body.dropLast() }
            if body.isEmpty { throw ShareError(.noInput, "share: -: standard input is empty") }
            return ResolvedItem(value: String(body), label: "-")
        }
        let type = UTType.type(ofData: data)
        let filename = "stdin." + (type.preferredFilenameExtension ?? "bin")
        return ResolvedItem(value: DataItem(data: data, filename: filename, typeIdentifier: type.identifier), label: "-")
    }

    // MARK: Paths and URLs

    /// A path, a `file://` URL, a web link or another scheme's link.
    func item(for operand: String) throws -> ResolvedItem {
        let path = absolutePath(operand)
        if let scheme = Self.scheme(of: operand), !FileManager.default.fileExists(atPath: path) {
            switch scheme {
            case "file":
                guard let url = URL(string: operand), url.host == nil || url.host == "" || url.host == "localhost",
                    !url.path.isEmpty
                else { throw ShareError(.badData, "share: \(operand): not a local file URL") }
                return try fileItem(path: url.path, label: operand)
            case "http", "https":
                guard let url = URL(string: operand), let host = url.host, !host.isEmpty else {
                    throw ShareError(.badData, "share: \(operand): not a valid web address")
                }
                return ResolvedItem(value: url, label: operand)
            default:
                if operand.contains("://") || Self.opaqueSchemes.contains(scheme) {
                    guard let url = URL(string: operand), url.scheme != nil else {
                        throw ShareError(.badData, "share: \(operand): not a valid URL")
                    }
                    return ResolvedItem(value: url, label: operand)
                }
            }
        }
        return try fileItem(path: path, label: operand)
    }

    /// The lowercased scheme when `text` starts like a URL (`letter (letter|digit|+|-|.)* :`).
    static func scheme(of text: String) -> String? {
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

    /// Checks that the file exists, is not a directory, and can be opened and read.
    func fileItem(path: String, label: String) throws -> ResolvedItem {
        let full = absolutePath(path)
        var info = stat()
        if stat(full, &info) != 0 {
            let code = errno
            throw ShareError(.noInput, "share: \(label): " + (code == ENOENT || code == ENOTDIR ? "no such file" : Self.describe(errno: code)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: throw ShareError(.noInput, "share: \(label): is a directory")
        case S_IFREG: break
        default: throw ShareError(.noInput, "share: \(label): not a regular file")
        }
        let descriptor = open(full, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if descriptor < 0 { throw ShareError(.noInput, "share: \(label): " + Self.describe(errno: errno)) }
        defer { close(descriptor) }
        var byte: UInt8 = 0
        if read(descriptor, &byte, 1) < 0 { throw ShareError(.noInput, "share: \(label): " + Self.describe(errno: errno)) }
        return ResolvedItem(value: URL(fileURLWithPath: full).standardizedFileURL, label: label)
    }

    /// "permission denied", "input/output error": `strerror` in lower case.
    static func describe(errno code: Int32) -> String {
        if code == EACCES || code == EPERM { return "permission denied" }
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    static func describe(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return describe(errno: posix.code.rawValue) }
        return (error as NSError).localizedDescription
    }
}
