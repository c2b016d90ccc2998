import Contacts
import Foundation
import ShareSheet
import Sharing
import ShareSheetSystem

/// `share contacts list|show`: the contacts folder that `share --activity contact` sets photos
/// in (`[contacts] folder=` in the configuration, else `$XDG_DATA_HOME/contacts/default`).
enum ContactsCommand: ShareSubcommand {
    static let spec = CommandSpec(
        name: "contacts", summary: "the contacts folder Assign to Contact sets photos in",
        about: "The folder is [contacts] folder= in the configuration, else $XDG_DATA_HOME/contacts/default "
            + "(a vdir, as khard and vdirsyncer keep it).",
        actions: [
            ActionSpec(
                name: "list", summary: "the contacts and their photos",
                options: [JSONOutput.jsonOption, JSONOutput.prettyOption]),
            ActionSpec(
                name: "show", operands: "NAME|EMAIL|UID", summary: "one contact's card",
                options: [JSONOutput.jsonOption, JSONOutput.prettyOption]),
        ],
        examples: ["share contacts show ana@example.com"])

    static func run(_ arguments: [String], context: CommandContext) async throws -> Termination {
        let action = try spec.action(named: arguments.first)
        let parsed = try options(Array(arguments.dropFirst()), for: action)
        let format = try JSONOutput.format(parsed, command: "contacts \(action.name)")
        let operands = parsed.operands
        let directories = XDGDirectories(environment: context.environment)
        let book = try ContactBook.configured(directories: directories)
        let listing = try await Task.detached { try book.load() }.value
        for skipped in listing.skipped {
            context.warn("warning: \(skipped.description)")
        }
        switch action.name {
        case "list":
            if let extra = operands.first {
                throw ShareError(.usage, "contacts list: unexpected argument '\(extra)'")
            }
            if let format {
                try JSONOutput.write(JSONValue.array(listing.contacts.map(object)), format: format, to: context)
            } else {
                context.standardOutput.write(table(listing.contacts))
            }
            return .success
        case "show":
            guard operands.count == 1, let query = operands.first, !query.isEmpty else {
                throw ShareError(.usage, "contacts show: give one name, e-mail address or UID")
            }
            switch ContactBook.match(query, in: listing.contacts) {
            case .one(let contact):
                if let format {
                    try JSONOutput.write(object(contact), format: format, to: context)
                } else {
                    context.standardOutput.write(details(contact))
                }
                return .success
            case .several(let matches):
                throw ShareError(.usage, "contacts show: " + ContactBook.ambiguity(query, matches))
            case .none:
                throw ShareError(.noInput, "contacts show: no contact matches “\(query)” in \(book.folder.path)")
            }
        default:
            preconditionFailure("an action of the spec without a case: \(action.name)")
        }
    }

    /// One line per contact: name, first e-mail address, photo, file name.
    private static func table(_ contacts: [Contact]) -> String {
        let rows = contacts.map { contact in
            [contact.displayName, contact.emailAddresses.first ?? "-", photoSummary(contact.photo), contact.fileURL.lastPathComponent]
        }
        guard !rows.isEmpty else { return "" }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            (0..<3).map { row[$0].padding(widths[$0]) }.joined(separator: "  ") + "  " + row[3] + "\n"
        }.joined()
    }

    /// Every field this command knows, one per line.
    private static func details(_ contact: Contact) -> String {
        var text = "Name: \(contact.displayName)\n"
        for address in contact.emailAddresses { text += "E-mail: \(address)\n" }
        if let uid = contact.uid { text += "UID: \(uid)\n" }
        text += "vCard: \(contact.version.rawValue)\n"
        text += "File: \(contact.fileURL.path)\n"
        text += "Photo: \(photoSummary(contact.photo))\n"
        return text
    }

    /// "JPEG 720×540, 48213 bytes", "link https://…", or "-".
    private static func photoSummary(_ photo: ContactPhoto?) -> String {
        switch photo {
        case nil: return "-"
        case .link(let link): return "link \(link)"
        case .unreadable: return "unreadable"
        case .embedded(let data, _):
            let info = photoInfo(data)
            return "\(info.format) \(info.width)×\(info.height), \(data.count) bytes"
        }
    }

    private static func photoInfo(_ data: Data) -> (format: String, width: Int, height: Int) {
        guard let image = Image(data: data) else { return ("data", 0, 0) }
        let format = image.type.preferredFilenameExtension?.uppercased() ?? image.type.identifier
        return (format == "JPG" ? "JPEG" : format, Int(image.size.width), Int(image.size.height))
    }

    /// A contact as `--json` prints it. A photo has every key whatever kind it is (null when it
    /// does not apply), like every other JSON the command prints.
    private static func object(_ contact: Contact) -> JSONValue {
        func photoObject(link: String? = nil, unreadable: Bool = false, embedded: Data? = nil) -> JSONValue {
            let info = embedded.map(photoInfo)
            return .object([
                ("link", link.map(JSONValue.string) ?? .null), ("unreadable", .bool(unreadable)),
                ("format", info.map { .string($0.format) } ?? .null), ("width", info.map { .number($0.width) } ?? .null),
                ("height", info.map { .number($0.height) } ?? .null), ("bytes", embedded.map { .number($0.count) } ?? .null),
            ])
        }
        let photo: JSONValue
        switch contact.photo {
        case nil: photo = .null
        case .link(let link): photo = photoObject(link: link)
        case .unreadable: photo = photoObject(unreadable: true)
        case .embedded(let data, _): photo = photoObject(embedded: data)
        }
        return .object([
            ("name", .string(contact.displayName)),
            ("emails", .array(contact.emailAddresses.map(JSONValue.string))),
            ("uid", contact.uid.map(JSONValue.string) ?? .null),
            ("version", .string(contact.version.rawValue)),
            ("file", .string(contact.fileURL.path)),
            ("photo", photo),
        ])
    }
}
