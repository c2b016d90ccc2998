import CGIO
import GVariants
import Foundation
import GLibErrors
import ShareServiceProtocol
import ShareSheet
import Sharing
import UniformTypes

/// A `ListActivities` or `Share` call, read from its D-Bus arguments: the items, ready for the
/// share layer, and the options. Reading never looks at a descriptor's content; a file is read
/// only after the pick, by its provider.
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
    /// `interactive` (default true).
    var interactive = true
    /// `handle_token`.
    var token: String?
    /// `custom-actions`: the caller's own activities.
    var customActions: [CustomAction] = []
    /// `parent_window`: "", `x11:XID` or `wayland:HANDLE`.
    var parentWindow = ""

    /// Why a call cannot be carried out, in one line naming the item or option.
    struct Problem: Error {
        var message: String
    }

    /// Reads `items` (aa{sv}) and `options` (a{sv}); descriptors come from `fileDescriptors`.
    /// On a problem, descriptors already taken are closed before it is thrown.
    init(items list: OpaquePointer, options: OpaquePointer, fileDescriptors: UnsafeMutablePointer<GUnixFDList>?) throws {
        do {
            try readOptions(options)
            let entries = Variant.children(of: list)
            defer { Variant.release(entries) }
            if entries.isEmpty { throw Problem(message: "no items: give at least one text, uri or fd") }
            for (index, entry) in entries.enumerated() {
                items.append(try item(entry, number: index + 1, fileDescriptors: fileDescriptors))
            }
        } catch {
            for descriptor in descriptors { close(descriptor) }
            descriptors = []
            throw error
        }
    }

    // MARK: Items

    private mutating func item(_ entry: OpaquePointer, number: Int, fileDescriptors: UnsafeMutablePointer<GUnixFDList>?) throws -> ResolvedItem {
        // Which of the three it has, looked up in place; every key is read only to say what is wrong.
        var kinds: [String] = []
        for kind in ["text", "uri", "fd"] {
            guard let value = Variant.lookup(entry, kind) else { continue }
            g_variant_unref(value)
            kinds.append(kind)
        }
        guard kinds.count == 1, let kind = kinds.first else {
            let keys = Set(Variant.children(of: entry).map { pair -> String in
                defer { g_variant_unref(pair) }
                let key = g_variant_get_child_value(pair, 0)!
                defer { g_variant_unref(key) }
                return Variant.text(of: key)
            })
            let found = keys.isEmpty ? "no keys" : "keys " + keys.sorted().joined(separator: ", ")
            throw Problem(message: "item \(number): give exactly one of text, uri or fd (it has \(found))")
        }
        switch kind {
        case "text":
            return ResolvedItem(value: try string(entry, "text", item: number), label: "text")
        case "uri":
            return try uriItem(try string(entry, "uri", item: number), number: number)
        default:
            return try descriptorItem(entry, number: number, fileDescriptors: fileDescriptors)
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

    private mutating func descriptorItem(_ entry: OpaquePointer, number: Int, fileDescriptors: UnsafeMutablePointer<GUnixFDList>?) throws -> ResolvedItem {
        let handle = try value(entry, "fd", type: "h", item: number)
        let index = g_variant_get_handle(handle)
        g_variant_unref(handle)
        let name = try optionalString(entry, "name", item: number)
        let mimeType = try optionalString(entry, "mime-type", item: number)
        let label = name ?? "item \(number)"
        guard let fileDescriptors, index >= 0, index < g_unix_fd_list_get_length(fileDescriptors) else {
            throw Problem(message: "\(label): descriptor \(index) was not sent with the call")
        }
        var error: UnsafeMutablePointer<GError>?
        let descriptor = g_unix_fd_list_get(fileDescriptors, index, &error)
        if error != nil {
            let failure = GLibError(taking: &error, call: "g_unix_fd_list_get")
            throw Problem(message: "\(label): the descriptor cannot be used: \(failure.message)")
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

    private mutating func readOptions(_ options: OpaquePointer) throws {
        token = try optionalString(options, "handle_token", item: nil)
        if let token, !ServiceNames.isValidToken(token) {
            throw Problem(message: "handle_token '\(token)' may hold only ASCII letters, digits and _")
        }
        let subject = try optionalString(options, "subject", item: nil)
        var settings: [(key: String, value: String)] = []
        var recipients: [String] = []
        if let fields = try optionalValue(options, "fields", type: "a{ss}") {
            for pair in Variant.children(of: fields) {
                let key = g_variant_get_child_value(pair, 0)!
                let value = g_variant_get_child_value(pair, 1)!
                let name = Variant.text(of: key)
                let text = Variant.text(of: value)
                if name == "to" {
                    recipients += text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                } else {
                    settings.append((key: name, value: text))
                }
                Variant.release([key, value, pair])
            }
            g_variant_unref(fields)
        }
        presets = SharePresets(to: recipients, subject: subject, settings: settings)
        if let excluded = try optionalValue(options, "excluded-activities", type: "as") {
            let names = Variant.children(of: excluded)
            exclusions = names.map(Variant.text(of:))
            Variant.release(names + [excluded])
        }
        activity = try optionalString(options, "activity", item: nil)
        if let flag = try optionalValue(options, "interactive", type: "b") {
            interactive = g_variant_get_boolean(flag) != 0
            g_variant_unref(flag)
        }
        if let actions = try optionalValue(options, "custom-actions", type: "a(sss)") {
            for action in Variant.children(of: actions) {
                let fields = Variant.children(of: action)
                let (id, title, icon) = (Variant.text(of: fields[0]), Variant.text(of: fields[1]), Variant.text(of: fields[2]))
                Variant.release(fields + [action])
                guard !id.isEmpty, !title.isEmpty else {
                    throw Problem(message: "custom-actions: each needs an id and a title")
                }
                customActions.append(CustomAction(id: id, title: title, iconName: icon.isEmpty ? nil : icon))
            }
            g_variant_unref(actions)
        }
    }

    /// The call's `handle_token` when it is a usable one, whatever else is wrong with the call.
    static func validToken(in options: OpaquePointer) -> String? {
        guard let found = g_variant_lookup_value(options, "handle_token", Variant.type("s")) else { return nil }
        defer { g_variant_unref(found) }
        let token = Variant.text(of: found)
        return ServiceNames.isValidToken(token) ? token : nil
    }

    // MARK: Typed lookups

    private func value(_ dictionary: OpaquePointer, _ key: String, type: StaticString, item: Int?) throws -> OpaquePointer {
        guard let found = try optionalValue(dictionary, key, type: type, item: item) else {
            throw Problem(message: "\(item.map { "item \($0): " } ?? "")\(key) is missing")
        }
        return found
    }

    private func optionalValue(
        _ dictionary: OpaquePointer, _ key: String, type: StaticString, item: Int? = nil
    ) throws -> OpaquePointer? {
        guard let found = Variant.lookup(dictionary, key) else { return nil }
        let actual = Variant.typeString(of: found)
        guard actual == "\(type)" else {
            g_variant_unref(found)
            let place = item.map { "item \($0): " } ?? "option "
            throw Problem(message: "\(place)\(key) must be of type \(type), not \(actual)")
        }
        return found
    }

    private func string(_ dictionary: OpaquePointer, _ key: String, item: Int) throws -> String {
        let found = try value(dictionary, key, type: "s", item: item)
        defer { g_variant_unref(found) }
        return Variant.text(of: found)
    }

    private func optionalString(_ dictionary: OpaquePointer, _ key: String, item: Int?) throws -> String? {
        guard let found = try optionalValue(dictionary, key, type: "s", item: item) else { return nil }
        defer { g_variant_unref(found) }
        return Variant.text(of: found)
    }
}
