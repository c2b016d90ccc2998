import Foundation
import Pasteboard
import ShareSheet
import ShareSheetTerminal
import UniformTypes

/// `share paste [--type TYPE] [--types [--json]]`: prints what Copy put on the active pasteboard — the
/// Wayland or X11 clipboard when there is a display, else the file-backed pasteboard. Text ends
/// with a newline on a terminal; into a pipe or a file it is written byte for byte.
enum PasteCommand: ShareSubcommand {
    static let spec = CommandSpec(
        name: "paste", summary: "print the pasteboard's text, or one of its types as bytes",
        about: "The pasteboard is the Wayland or X11 clipboard when there is a display, else the file Copy "
            + "writes without one.",
        options: [
            .value("--type", "TYPE", "print this type (a MIME type or UTI) as bytes"),
            .flag("--types", "list the types the pasteboard offers, best first"),
            JSONOutput.jsonOption, JSONOutput.prettyOption,
        ],
        examples: ["share paste --type image/png > copied.png"])

    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination {
        let parsed = try options(arguments)
        if let extra = parsed.operands.first { throw ShareError(.usage, "paste: unexpected argument '\(extra)'") }
        let requested = parsed.value("--type")
        let listTypes = parsed.flag("--types")
        let format = try JSONOutput.format(parsed, command: "paste")
        if format != nil, !listTypes { throw ShareError(.usage, "paste: --json works only with --types") }
        let backend = Pasteboard.automaticBackend(environment: context.environment)
        let offered = try backend.types()
        guard !offered.isEmpty else { throw ShareError(.noInput, "paste: the pasteboard is empty (\(backend.name))") }
        if listTypes {
            if let format {
                try JSONOutput.write(offered.map(OfferedType.init), format: format, to: context)
            } else {
                context.standardOutput.write(offered.map { $0 + "\n" }.joined())
            }
            return .success
        }
        let type: String
        if let requested {
            let mime = offered.contains(requested) || requested.contains("/") ? requested : UTType(requested)?.preferredMIMEType ?? requested
            guard offered.contains(mime) else {
                throw ShareError(.noInput, "paste: the pasteboard has no \(requested); it offers \(offered.joined(separator: ", "))")
            }
            type = mime
        } else {
            guard let text = Pasteboard.textTypes.first(where: offered.contains) else {
                throw ShareError(.noInput, "paste: the pasteboard holds no text; it offers \(offered.joined(separator: ", ")) (use --type)")
            }
            type = text
        }
        guard var data = try backend.data(forType: type) else {
            throw ShareError(.noInput, "paste: \(type) is no longer on the pasteboard")
        }
        // On a terminal, text that does not end a line would leave the prompt glued to it, so a
        // newline is added there. Into a pipe or a file the bytes stay exactly as copied:
        // `share paste > file` gives back what was copied, byte for byte.
        if context.standardOutputIsTerminal, Pasteboard.textTypes.contains(type), let last = data.last,
            last != UInt8(ascii: "\n")
        {
            data.append(UInt8(ascii: "\n"))
        }
        if let output = context.standardOutput as? FileDescriptorOutput {
            try write(data, to: output.descriptor)
        } else {
            context.standardOutput.write(String(decoding: data, as: UTF8.self))
        }
        return .success
    }

    /// One type the pasteboard offers, as `--types --json` encodes it.
    struct OfferedType: Encodable {
        /// The name as offered, which `--type` takes.
        var type: String
        /// The same name when it is a MIME type; null for an X11 target such as `UTF8_STRING`.
        var mimeType: String?
        /// Its UTType identifier (`public.png`, or a `dyn.` one); null when it is no MIME type.
        var typeIdentifier: String?

        init(_ offered: String) {
            type = offered
            let asMIMEType = UTType(mimeType: offered, conformingTo: .item)
            mimeType = asMIMEType == nil ? nil : offered
            typeIdentifier = asMIMEType?.identifier
        }

        // Every key present, null when empty.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type, forKey: .type)
            try container.encode(mimeType, forKey: .mimeType)
            try container.encode(typeIdentifier, forKey: .typeIdentifier)
        }

        private enum CodingKeys: String, CodingKey {
            case type, mimeType, typeIdentifier
        }
    }

    private static func write(_ data: Data, to descriptor: Int32) throws {
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw ShareError(.ioError, "paste: cannot write: \(String(cString: strerror(errno)))")
                }
                offset += count
            }
        }
    }
}
