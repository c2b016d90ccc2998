import DBus
import GVariants
import Foundation
import GLibErrors
import ShareServiceProtocol
import ShareSheet
import Sharing
import UniformTypes

/// A `ListActivities`, `ListSuggestions` or `Share` call, read from its D-Bus arguments: the
/// items, ready for the share layer, and the options. Reading never looks at a descriptor's
/// content; a file is read only after the pick, by its provider.
@MainActor
struct ServiceCall {
    /// The items as the controller takes them, each with a label for messages.
    var items: [ResolvedItem] = []
    /// Descriptors received with the call; the request closes them when it ends.
    var descriptors: [Int32] = []
    var presets = SharePresets()
    var exclusions: [String] = []
    /// `activity`: skip the sheet.
    var activity: String?
    /// `suggestion`: skip the sheet for this suggestion's activity, with its presets.
    var suggestion: String?
    /// `interactive` (default true).
    var interactive = true
    /// `handle_token`.
    var token: String?
    /// `custom-actions`: the caller's own activities.
    var customActions: [CustomAction] = []
    /// `parent_window`: "", `x11:XID` or `wayland:HANDLE`.
    var parentWindow = ""
    /// `sent-items`, `image-size` and `keep-location`: what goes, and how photos go.
    var choices = ItemChoices()
    /// `choose-items` (default true): whether the window lets the person leave items out.
    var choosesItems = true
    /// `sent-items` as given, checked against the items once they are read.
    private var sentItems: [Int]?

    /// Why a call cannot be carried out, in one line naming the item or option.
    struct Problem: Error {
        var message: String
    }

    /// Reads `items` (aa{sv}) and `options` (a{sv}) through the wire format; descriptors come
    /// from `fileDescriptors`. On a problem, descriptors already taken are closed before it is thrown.
    init(items list: GVariant, options: GVariant, fileDescriptors: DBusFileDescriptors?) throws {
        do {
            try read(try WireOptions(decoding: options))
            let entries = try WireItem.decode(list)
            if entries.isEmpty { throw Problem(message: "no items: give at least one text, uri or fd") }
            for (index, entry) in entries.enumerated() {
                items.append(try item(entry, number: index + 1, fileDescriptors: fileDescriptors))
            }
            if let sentItems {
                if let wrong = sentItems.first(where: { !items.indices.contains($0) }) {
                    throw Problem(message: "sent-items: there is no item \(wrong) (positions start at 0; \(items.count) were sent)")
                }
                choices.leftOut = Set(items.indices).subtracting(sentItems)
            }
        } catch let error as WireError {
            for descriptor in descriptors { close(descriptor) }
            descriptors = []
            throw Problem(message: error.message)
        } catch {
            for descriptor in descriptors { close(descriptor) }
            descriptors = []
            throw error
        }
    }

    // MARK: Items

    private mutating func item(_ entry: WireItem, number: Int, fileDescriptors: DBusFileDescriptors?) throws -> ResolvedItem {
        switch entry {
        case .text(let text):
            return ResolvedItem(value: text, label: "text")
        case .uri(let uri):
            return try uriItem(uri, number: number)
        case .file(let index, let name, let mimeType):
            return try descriptorItem(index, name: name, mimeType: mimeType, number: number, fileDescriptors: fileDescriptors)
        }
    }

    private func uriItem(_ uri: String, number: Int) throws -> ResolvedItem {
        guard let scheme = ItemResolver.scheme(of: uri) else {
            throw Problem(message: "item \(number): '\(uri)' is not a URI (a file is sent as a descriptor: {\"fd\": h})")
        }
        if scheme == "file" {
            throw Problem(
                message: "item \(number): file: URIs are refused; send the file as a descriptor ({\"fd\": h, \"name\": s})")
        }
        let link: ResolvedItem?
        do {
            link = try ItemResolver.link(uri, scheme: scheme)
        } catch {
            throw Problem(message: "item \(number): \(ItemResolver.describe(error))")
        }
        // Never looked up as a path: the service's files are its callers' descriptors only.
        guard let link else { throw Problem(message: "item \(number): '\(uri)' is not a URI this service can share") }
        return link
    }

    private mutating func descriptorItem(
        _ index: Int32, name: String?, mimeType: String?, number: Int, fileDescriptors: DBusFileDescriptors?
    ) throws -> ResolvedItem {
        let label = name ?? "item \(number)"
        let duplicate: Int32?
        do throws(GLibError) {
            duplicate = try fileDescriptors?.duplicate(at: index)
        } catch {
            throw Problem(message: "\(label): the descriptor cannot be used: \(error.message)")
        }
        guard let descriptor = duplicate else {
            throw Problem(message: "\(label): descriptor \(index) was not sent with the call")
        }
        descriptors.append(descriptor)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw Problem(message: "\(label): the descriptor cannot be used: \(String(cString: strerror(errno)))")
        }
        if status.st_mode & S_IFMT == S_IFDIR { throw Problem(message: "\(label): is a folder; send files one by one") }
        let accessMode = fcntl(descriptor, F_GETFL) & O_ACCMODE
        guard accessMode == O_RDONLY || accessMode == O_RDWR else {
            throw Problem(message: "\(label): the descriptor is not open for reading")
        }
        let provider = DescriptorProvider(descriptor: descriptor, name: name, mimeType: mimeType, number: number)
        return ResolvedItem(value: provider, label: provider.fileURL.lastPathComponent)
    }

    // MARK: Options

    private mutating func read(_ options: WireOptions) throws {
        token = options.handleToken
        if let token, !ServiceNames.isValidToken(token) {
            throw Problem(message: "handle_token '\(token)' may hold only ASCII letters, digits and _")
        }
        var settings: [(key: String, value: String)] = []
        var recipients: [String] = []
        for field in options.fields {
            if field.key == "to" {
                recipients += field.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            } else {
                settings.append((key: field.key, value: field.value))
            }
        }
        presets = SharePresets(to: recipients, subject: options.subject, settings: settings)
        exclusions = options.excludedActivities
        activity = options.activity
        suggestion = options.suggestion
        interactive = options.interactive ?? true
        choosesItems = options.chooseItems ?? true
        sentItems = options.sentItems
        choices.keepsLocation = options.keepLocation == true ? true : nil
        if let name = options.imageSize {
            guard let size = ImageSize(named: name) else {
                throw Problem(message: "image-size must be original, large, medium or small, not '\(name)'")
            }
            choices.imageSize = size
        }
        customActions = options.customActions.map {
            CustomAction(id: $0.id, title: $0.title, iconName: $0.iconName.isEmpty ? nil : $0.iconName)
        }
    }

    /// The call's `handle_token` when it is a usable one, whatever else is wrong with the call.
    static func validToken(in options: GVariant) -> String? {
        WireOptions.validToken(in: options)
    }
}
