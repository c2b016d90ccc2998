import Foundation
import ShareSheet
import ShareSheetSystem

/// A contacts folder in the vdir layout that khard and vdirsyncer use: one `.vcf` file per
/// contact, named after its UID.
///
/// ```swift
/// let book = try ContactBook.configured()
/// let ana = try book.assignPhoto(imageData, named: "ana.png", to: "ana@example.com")
/// ```
///
/// Reading never changes a file. Setting a photo rewrites one card through a temporary file in
/// the same folder and a rename, changing its PHOTO property only; a card that cannot be parsed
/// is skipped with a warning and never rewritten.
public struct ContactBook: Sendable {
    /// The folder of `.vcf` files.
    public let folder: URL
    /// The vCard version of new cards.
    public var newCardVersion: VCardVersion
    /// The longest side of a photo, in pixels; larger images are scaled down to it.
    public var maxPhotoPixelSize = 720
    /// The JPEG quality of photos (0–100).
    public var photoQuality = 90

    /// A book over `folder`; new cards use `newCardVersion`.
    public init(folder: URL, newCardVersion: VCardVersion = .v3) {
        self.folder = folder
        self.newCardVersion = newCardVersion
    }

    /// The embedded default folder: `$XDG_DATA_HOME/contacts/default`.
    public static func defaultFolder(in directories: XDGDirectories = HostEnvironment.process.directories) -> URL {
        directories.dataHome.appendingPathComponent("contacts", isDirectory: true)
            .appendingPathComponent("default", isDirectory: true)
    }

    /// The book the configuration names: `[contacts] folder=` (an absolute path or `~/…`) and
    /// `version=` (3.0 or 4.0, for new cards), else the embedded default folder.
    /// - Throws: `ShareError(.badData)` for a configuration value that cannot be used.
    public static func configured(
        _ configuration: Configuration? = nil, directories: XDGDirectories = HostEnvironment.process.directories
    ) throws -> ContactBook {
        let configuration = try configuration ?? Configuration.load(from: directories)
        let source = configuration.file?.path ?? "configuration"
        var folder = defaultFolder(in: directories)
        if let configured = configuration.string("folder", in: "contacts")?.trimmingCharacters(in: .whitespaces),
            !configured.isEmpty
        {
            var path = configured
            if path == "~" || path.hasPrefix("~/") { path = directories.home.path + path.dropFirst() }
            guard path.hasPrefix("/") else {
                throw ShareError(
                    .badData, "\(source): the contacts folder must be an absolute path, not \(configured)",
                    setting: ShareError.Setting(group: "contacts", "folder"))
            }
            folder = URL(fileURLWithPath: path, isDirectory: true)
        }
        var version = VCardVersion.v3
        if let configured = configuration.string("version", in: "contacts")?.trimmingCharacters(in: .whitespaces),
            !configured.isEmpty
        {
            guard let chosen = VCardVersion(rawValue: configured) else {
                throw ShareError(
                    .badData, "\(source): the vCard version of new cards must be 3.0 or 4.0, not \(configured)",
                    setting: ShareError.Setting(group: "contacts", "version"))
            }
            version = chosen
        }
        return ContactBook(folder: folder, newCardVersion: version)
    }

    // MARK: Reading

    /// The contacts of the folder and the files that were skipped.
    public struct Listing: Sendable {
        /// The readable cards, sorted by display name.
        public var contacts: [Contact]
        /// The `.vcf` files that could not be read, with the reason.
        public var skipped: [SkippedCard]
    }

    /// A `.vcf` file that is not a card this module can read; it is never rewritten.
    public struct SkippedCard: Sendable, Hashable, CustomStringConvertible {
        /// The file.
        public var fileURL: URL
        /// Why it was skipped.
        public var reason: String

        /// "bad.vcf: skipped, it does not end with END:VCARD"
        public var description: String { "\(fileURL.path): skipped, \(reason)" }
    }

    /// Reads every `.vcf` file of the folder (a missing folder has no contacts).
    /// - Throws: `ShareError(.ioError)` when the folder exists but cannot be listed.
    public func load() throws -> Listing {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch CocoaError.fileReadNoSuchFile {
            return Listing(contacts: [], skipped: [])
        } catch {
            if !FileManager.default.fileExists(atPath: folder.path) { return Listing(contacts: [], skipped: []) }
            throw ShareError(.ioError, "\(folder.path): cannot list the contacts folder: \(error.localizedDescription)")
        }
        var contacts: [Contact] = []
        var skipped: [SkippedCard] = []
        for name in names.sorted() where name.lowercased().hasSuffix(".vcf") && !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            do {
                contacts.append(try CardFile.contact(at: url))
            } catch let error as ShareError {
                skipped.append(SkippedCard(fileURL: url, reason: Self.reason(of: error, file: url)))
            }
        }
        contacts.sort { ($0.displayName.lowercased(), $0.fileURL.path) < ($1.displayName.lowercased(), $1.fileURL.path) }
        return Listing(contacts: contacts, skipped: skipped)
    }

    /// Writes a warning to standard error as "program: warning: …".
    @Sendable public static func printWarning(_ warning: String) {
        let program = ProcessInfo.processInfo.processName
        FileHandle.standardError.write(Data("\(program): warning: \(warning)\n".utf8))
    }

    private static func reason(of error: ShareError, file: URL) -> String {
        let prefix = file.path + ": "
        return error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
    }

    /// Reads and parses one card, whole: for rewriting it. `CardFile.contact(at:)` reads a
    /// contact without holding the file.
    /// - Throws: `ShareError(.badData)` naming the file when it is malformed, `.ioError` when it
    ///   cannot be read.
    func read(_ url: URL) throws -> (document: VCardDocument, contact: Contact) {
        let handle = try CardOpening.open(url)
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: CardOpening.sizeLimit + 1) ?? Data()
        } catch {
            throw ShareError(.ioError, "\(url.path): cannot read: \(error.localizedDescription)")
        }
        guard data.count <= CardOpening.sizeLimit else { throw ShareError(.badData, "\(url.path): \(CardOpening.tooLarge)") }
        do {
            let document = try VCardDocument(bytes: [UInt8](data))
            return (document, Contact(fileURL: url, document: document))
        } catch {
            throw ShareError(.badData, "\(url.path): \(error.description)")
        }
    }

    // MARK: Finding

    /// What a name or e-mail address matches.
    public enum Match: Sendable, Hashable {
        /// Exactly one contact.
        case one(Contact)
        /// Several contacts, none better than the others.
        case several([Contact])
        /// No contact: a new one would be made from the name and address.
        case none(name: String, email: String?)
    }

    /// Finds the contacts that `query` names: an e-mail address, `Name <address>`, a full name,
    /// a UID or a file name match exactly (case aside); otherwise contacts whose names have
    /// words starting with every word of the query, or whose address starts with it.
    public static func match(_ query: String, in contacts: [Contact]) -> Match {
        let parsed = Query(query)
        func exact(_ contact: Contact) -> Bool {
            if let email = parsed.email, contact.emailAddresses.contains(where: { $0.lowercased() == email.lowercased() }) {
                return true
            }
            guard !parsed.name.isEmpty else { return false }
            let name = parsed.name.lowercased()
            let fileName = contact.fileURL.lastPathComponent.lowercased()
            return contact.displayName.lowercased() == name || contact.uid?.lowercased() == name
                || fileName == name || fileName == name + ".vcf"
        }
        let exactMatches = contacts.filter(exact)
        if exactMatches.count == 1 { return .one(exactMatches[0]) }
        if exactMatches.count > 1 { return .several(exactMatches) }
        let partial = contacts.filter { parsed.partiallyMatches($0) }
        if partial.count == 1 { return .one(partial[0]) }
        if partial.count > 1 { return .several(partial) }
        return .none(name: parsed.name.isEmpty ? (parsed.email ?? "") : parsed.name, email: parsed.email)
    }

    /// A query split into a name and an e-mail address.
    struct Query {
        var name: String
        var email: String?

        init(_ text: String) {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
                let address = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
                    .trimmingCharacters(in: .whitespaces)
                var name = trimmed[..<open].trimmingCharacters(in: .whitespaces)
                if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
                if EmailAddress.isValid(address) {
                    self.name = name
                    email = address
                    return
                }
            }
            if !trimmed.contains(" "), trimmed.contains("@"), EmailAddress.isValid(trimmed) {
                name = ""
                email = trimmed
            } else {
                name = trimmed
                email = nil
            }
        }

        func partiallyMatches(_ contact: Contact) -> Bool {
            if let email {
                return contact.emailAddresses.contains { $0.lowercased().hasPrefix(email.lowercased()) }
            }
            let wanted = name.lowercased().split(whereSeparator: \.isWhitespace)
            guard !wanted.isEmpty else { return false }
            let words = ([contact.displayName] + contact.nameComponents).joined(separator: " ").lowercased()
                .split(whereSeparator: { $0.isWhitespace || $0 == "," })
            let nameMatches = wanted.allSatisfy { part in words.contains { $0.hasPrefix(part) } }
            let emailMatches = wanted.count == 1 && contact.emailAddresses.contains { $0.lowercased().hasPrefix(wanted[0]) }
            return nameMatches || emailMatches
        }
    }

    // MARK: Writing

    /// Where a photo goes: an existing contact, or a new one made with this name and address.
    public enum Target: Sendable, Hashable {
        /// An existing card.
        case existing(Contact)
        /// A new card.
        case new(name: String, email: String?)
    }

    /// Scales an image to the book's photo size and encodes it as JPEG.
    /// - Parameter name: the image's name, for the error.
    /// - Throws: `ShareError(.badData)` naming the image when gdk-pixbuf cannot read it.
    public func photoJPEG(from imageData: Data, named name: String) throws -> (jpeg: Data, width: Int, height: Int) {
        do {
            let encoded = try Pixbuf.scaledJPEG(from: imageData, maxPixelSize: maxPhotoPixelSize, quality: photoQuality)
            return (encoded.jpeg, encoded.width, encoded.height)
        } catch {
            throw ShareError(.badData, "\(name): not an image that can be read: \(error.message)")
        }
    }

    /// Sets the photo of `target` to `imageData`, scaled to at most `maxPhotoPixelSize` pixels
    /// and encoded as JPEG, in the card's own vCard version syntax.
    /// - Parameters:
    ///   - name: the image's name, for errors.
    ///   - isCancelled: asked before the card is written; when true nothing is written.
    /// - Returns: the contact as it is now on disk.
    /// - Throws: `ShareError` — `.badData` for an unreadable image or a card that became
    ///   malformed, `.ioError` for a failed write, `.cancelled` when cancelled.
    public func assignPhoto(
        _ imageData: Data, named name: String, to target: Target, isCancelled: @Sendable () -> Bool = { false }
    ) throws -> Contact {
        let photo = try photoJPEG(from: imageData, named: name)
        return try assignJPEG(photo.jpeg, to: target, isCancelled: isCancelled)
    }

    /// Finds the contact `query` names (creating it when none matches) and sets its photo.
    /// - Throws: `ShareError(.usage)` when the query matches several contacts, and the errors of
    ///   `assignPhoto(_:named:to:isCancelled:)`.
    public func assignPhoto(_ imageData: Data, named name: String, to query: String) throws -> Contact {
        try assignPhoto(imageData, named: name, to: Self.target(for: query, in: load().contacts))
    }

    /// The target a query names among `contacts`.
    /// - Throws: `ShareError(.usage)` when it is empty, matches several contacts, or matches none
    ///   and looks like a mistyped address (an `@` but not one valid address).
    public static func target(for query: String, in contacts: [Contact]) throws -> Target {
        switch match(query, in: contacts) {
        case .one(let contact): return .existing(contact)
        case .several(let matches): throw ShareError(.usage, ambiguity(query, matches))
        case .none(let name, let email):
            guard !name.isEmpty else { throw ShareError(.usage, "no contact name or e-mail address given") }
            if email == nil, name.contains("@") {
                throw ShareError(.usage, "“\(query)” is not one e-mail address, and no contact has that name")
            }
            return .new(name: name, email: email)
        }
    }

    /// "“Ana” matches 2 contacts: Ana Lima <ana@example.com> (ana.vcf), …; give a full name, an
    /// e-mail address or a UID"
    public static func ambiguity(_ query: String, _ matches: [Contact]) -> String {
        let listed = matches.prefix(8).map { "\($0.description) (\($0.uid ?? $0.fileURL.lastPathComponent))" }
        let more = matches.count > 8 ? ", and \(matches.count - 8) more" : ""
        return "“\(query)” matches \(matches.count) contacts: \(listed.joined(separator: ", "))\(more); "
            + "give a full name, an e-mail address or a UID"
    }

    /// Writes an already encoded JPEG into the card of `target`.
    func assignJPEG(_ jpeg: Data, to target: Target, isCancelled: @Sendable () -> Bool) throws -> Contact {
        switch target {
        case .existing(let contact):
            // Read the card again: it may have changed since it was listed (a sync, an editor).
            let (document, _) = try read(contact.fileURL)
            let bytes = document.replacingPhoto(withJPEG: jpeg)
            if isCancelled() { throw ShareError(.cancelled, "\(contact.fileURL.lastPathComponent): cancelled") }
            try AtomicFile.write(Data(bytes), to: contact.fileURL, permissions: Self.permissions(of: contact.fileURL))
            return try CardFile.contact(at: contact.fileURL)
        case .new(let name, let email):
            let uid = UUID().uuidString.lowercased()
            let url = folder.appendingPathComponent(uid + ".vcf")
            let bytes = VCardDocument.newCard(
                version: newCardVersion, uid: uid, formattedName: name, nameComponents: Self.nameComponents(of: name, email: email),
                email: email, photo: jpeg)
            if isCancelled() { throw ShareError(.cancelled, "\(name): cancelled") }
            try AtomicFile.write(Data(bytes), to: url)
            return try CardFile.contact(at: url)
        }
    }

    /// N's components for a name typed as "Given Family" (or "Family, Given").
    static func nameComponents(of name: String, email: String?) -> [String] {
        if email != nil, name == email { return ["", "", "", "", ""] }
        if let comma = name.firstIndex(of: ",") {
            let family = name[..<comma].trimmingCharacters(in: .whitespaces)
            let given = name[name.index(after: comma)...].trimmingCharacters(in: .whitespaces)
            return [family, given, "", "", ""]
        }
        let words = name.split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count > 1 else { return [words.first ?? "", "", "", "", ""] }
        return [words.last!, words.dropLast().joined(separator: " "), "", "", ""]
    }

    /// The file's permission bits, so a rewrite keeps them (0600 stays 0600).
    private static func permissions(of url: URL) -> mode_t {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return 0o644 }
        return info.st_mode & 0o7777
    }
}
