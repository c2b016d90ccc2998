import Foundation
import ShareSheet
import ShareSheetSystem

/// Assign to Contact (`.assignToContact`): sets the photo of a contact in the contacts folder
/// (khard/vdirsyncer's vdir layout) to the shared image, scaled to at most 720 pixels.
///
/// Its interface asks for the contact by name or e-mail address (field `contact`; the CLI's
/// `--set contact=NAME`, or `--to ADDRESS`, fills it). A name that matches several contacts is
/// refused with the matches listed; one that matches none makes a new card. `returnedItems`
/// holds the card's file. Cards that cannot be parsed are skipped with a warning and never
/// rewritten.
public final class AssignToContactActivity: BuiltInActivity {
    /// Receives warnings (a skipped card); writes them to standard error unless replaced.
    public var warningHandler: @Sendable (String) -> Void = ContactBook.printWarning

    private let givenBook: ContactBook?
    private let givenDirectories: XDGDirectories?
    private var image: ImageSource?
    private var book: ContactBook?
    private var listing: ContactBook.Listing?
    private var preparationError: ShareError?
    /// The contacts' photos as files, by card file, for a window to show beside their names.
    private var photoFiles: [URL: String] = [:]
    private let cancelled = Locked(false)
    private var work: Task<Void, Never>?

    /// Makes the activity; it works on `book`, or on the configured book (`[contacts]` in the
    /// configuration of `directories`, by default those of the activity's `hostEnvironment`)
    /// when nil.
    public init(
        descriptor: BuiltInActivityDescriptor = BuiltInActivityDescriptor.catalog.first { $0.type == .assignToContact }!,
        book: ContactBook? = nil, directories: XDGDirectories? = nil
    ) {
        givenBook = book
        givenDirectories = directories
        super.init(descriptor: descriptor)
    }

    public override func prepare(withActivityItems activityItems: [Any]) {
        do {
            image = activityItems.lazy.compactMap(ImageSource.init).first
            guard image != nil else { throw ShareError(.badData, "Assign to Contact: no image among the items") }
            let book = try givenBook ?? ContactBook.configured(directories: givenDirectories ?? hostEnvironment.directories)
            let listing = try book.load()
            for skipped in listing.skipped { warningHandler(skipped.description) }
            self.book = book
            self.listing = listing
            photoFiles = ContactPhotoFiles.write(
                listing.contacts, in: (givenDirectories ?? hostEnvironment.directories).cacheHome)
        } catch let error as ShareError {
            preparationError = error
        } catch {
            preparationError = ShareError(.ioError, "Assign to Contact: \(error.localizedDescription)")
        }
    }

    /// The contact field, and `to` (a contact named ahead).
    public override var presetKeys: Set<String> { ["contact", "to"] }

    public override var activityInterface: ActivityInterface? {
        guard preparationError == nil, let book, let listing else { return nil }
        let contacts = listing.contacts
        let preset = context.presetValues["to"].map { $0.text }.flatMap { $0.isEmpty ? nil : $0 }
        let count = contacts.count
        return ActivityInterface(
            title: "Assign to Contact",
            message: "Contacts in \(book.folder.path) (\(count) \(count == 1 ? "card" : "cards"))",
            fields: [Self.contactField(preset: preset, contacts: contacts, photos: photoFiles)],
            submitTitle: "Assign",
            validate: { values in
                guard let query = values["contact"]?.text, !query.trimmingCharacters(in: .whitespaces).isEmpty else { return [:] }
                do {
                    _ = try ContactBook.target(for: query, in: contacts)
                    return [:]
                } catch {
                    return ["contact": (error as? ShareError)?.message ?? "\(error)"]
                }
            },
            onSubmit: { [weak self] values in
                self?.assign(to: values["contact"]?.text ?? "")
            })
    }

    /// The one field: which contact gets the picture. The folder's contacts are its suggested
    /// values, each by what names it alone (its UID, else its address, else its name), so a
    /// window can list them with their photos to pick from.
    private static func contactField(
        preset: String?, contacts: [Contact] = [], photos: [URL: String] = [:]
    ) -> InterfaceField {
        var field = InterfaceField(
            id: "contact", label: "Contact", kind: .text, isRequired: true, defaultValue: preset.map(InterfaceValue.text),
            help: "a name or e-mail address; a new contact is made when none matches")
        field.suggestedValues = contacts.map { contact in
            ChoiceOptions.Option(
                id: contact.uid.flatMap { $0.isEmpty ? nil : $0 } ?? contact.emailAddresses.first ?? contact.displayName,
                title: contact.displayName, detail: contact.emailAddresses.first ?? contact.phoneNumbers.first,
                iconName: "avatar-default", imagePath: photos[contact.fileURL])
        }
        .sorted { $0.title.localizedCaseInsensitiveCompare($1.title) == .orderedAscending }
        return field
    }

    public override var declaredFields: [InterfaceField] { [Self.contactField(preset: nil)] }

    /// The vCard folder it would write to; no card is read.
    public override var route: ActivityRoute? {
        let keys = [ActivityRoute.Setting(group: "contacts", key: "folder")]
        do {
            let book = try givenBook ?? ContactBook.configured(directories: givenDirectories ?? hostEnvironment.directories)
            return ActivityRoute("sets the photo of a vCard in \(book.folder.path)", settings: keys)
        } catch {
            return ActivityRoute("cannot assign: \((error as? ShareError)?.message ?? "\(error)")", settings: keys)
        }
    }

    public override func perform() {
        // Reached only when there is no interface: the items or the configuration were unusable.
        activityDidFail(preparationError ?? ShareError(.unavailable, "Assign to Contact: nothing to do"))
    }

    public override func cancel() {
        cancelled.withLock { $0 = true }
        work?.cancel()
    }

    private func assign(to query: String) {
        guard let book, let listing, let image else { return activityDidFail(preparationError ?? ShareError(.ioError, "Assign to Contact: not prepared")) }
        let target: ContactBook.Target
        do {
            target = try ContactBook.target(for: query, in: listing.contacts)
        } catch {
            return activityDidFail(error)
        }
        let cancelled = self.cancelled
        let progress = self.progress
        let name = image.name
        progress.totalUnitCount = 3
        work = Task.detached { [weak self] in
            let outcome = Result { () throws -> Contact in
                let data = try image.read()
                progress.completedUnitCount = 1
                let photo = try book.photoJPEG(from: data, named: name)
                progress.completedUnitCount = 2
                let contact = try book.assignJPEG(photo.jpeg, to: target) { cancelled.withLock { $0 } || Task.isCancelled }
                progress.completedUnitCount = 3
                return contact
            }
            await self?.finish(outcome)
        }
    }

    private func finish(_ outcome: Result<Contact, any Error>) {
        switch outcome {
        case .success(let contact):
            returnedItems = [contact.fileURL]
            disposition = .saved
            location = contact.fileURL.path
            activityDidFinish(true)
        case .failure(let error):
            activityDidFail(error)
        }
    }
}

/// The image a contact's photo comes from: an `Image` or an image file.
enum ImageSource: Sendable {
    case image(Image)
    case file(URL)

    /// The image of an item, or nil when the item is not one.
    init?(_ item: Any) {
        switch item {
        case let image as Image where !image.isEmpty: self = .image(image)
        case let url as URL where url.isFileURL: self = .file(url)
        default: return nil
        }
    }

    /// The name errors use: the file's name, or "image".
    var name: String {
        switch self {
        case .image(let image): return image.fileURL?.lastPathComponent ?? "image"
        case .file(let url): return url.lastPathComponent
        }
    }

    /// The encoded bytes.
    /// - Throws: `ShareError(.noInput)` naming the image when it cannot be read.
    func read() throws -> Data {
        switch self {
        case .image(let image):
            guard let data = image.encodedData else { throw ShareError(.noInput, "\(name): cannot be read") }
            return data
        case .file(let url):
            do {
                return try Data(contentsOf: url)
            } catch {
                throw ShareError(.noInput, "\(name): cannot be read: \(error.localizedDescription)")
            }
        }
    }
}
