import CGIO
import GLibErrors
import GVariants

/// One method call to an exported object, to be answered exactly once with `returnValue` or
/// `returnError` (now, or later from the same thread).
public final class DBusMethodInvocation: @unchecked Sendable {
    /// The GDBusMethodInvocation; GDBus lets it go when it is answered.
    public let pointer: OpaquePointer
    /// The caller's unique name ("" on a peer-to-peer connection).
    public let sender: String
    public let path: String
    public let interface: String
    public let method: String
    /// The arguments as a tuple, checked by GDBus against the interface's types.
    public let parameters: GVariant
    private var answered = false

    init(pointer: OpaquePointer, sender: String, path: String, interface: String, method: String, parameters: GVariant) {
        self.pointer = pointer
        self.sender = sender
        self.path = path
        self.interface = interface
        self.method = method
        self.parameters = parameters
    }

    /// The arguments, one by one.
    public var arguments: [GVariant] { parameters.children }

    /// The descriptors that came with the call, if any.
    public var descriptors: DBusFileDescriptors? {
        g_dbus_message_get_unix_fd_list(g_dbus_method_invocation_get_message(pointer)).map(DBusFileDescriptors.init(borrowing:))
    }

    /// Answers with `value`, a tuple of the reply's arguments (nil for none).
    public func returnValue(_ value: GVariant? = nil) {
        guard !answered else { return }
        answered = true
        withExtendedLifetime(value) { g_dbus_method_invocation_return_value(pointer, value?.pointer) }
    }

    /// Answers with the D-Bus error `name` (`org.freedesktop.DBus.Error.InvalidArgs`).
    public func returnError(_ name: String, _ message: String) {
        guard !answered else { return }
        answered = true
        g_dbus_method_invocation_return_dbus_error(pointer, name, message)
    }

    /// Answers with an error from another call, under its own D-Bus name when it had one.
    public func returnError(relaying error: GLibError?) {
        returnError(error?.remoteName ?? DBusErrorName.failed, error?.message ?? "unknown error")
    }
}

/// The D-Bus errors the services answer with.
public enum DBusErrorName {
    public static let failed = "org.freedesktop.DBus.Error.Failed"
    public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
}

/// An interface description parsed from introspection XML (GDBusNodeInfo).
public final class DBusInterfaceDescription: @unchecked Sendable {
    let node: UnsafeMutablePointer<GDBusNodeInfo>

    /// Parses `xml`, a `<node>` with one or more interfaces.
    public init(xml: String) throws(GLibError) {
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(xml, &error) else {
            throw GLibError(taking: &error, call: "g_dbus_node_info_new_for_xml")
        }
        self.node = node
    }

    deinit { g_dbus_node_info_unref(node) }

    /// The interface named `name`, or nil when the description has none.
    public func interface(_ name: String) -> DBusInterface? {
        g_dbus_node_info_lookup_interface(node, name).map { DBusInterface(pointer: $0, owner: self) }
    }
}

/// One interface of a `DBusInterfaceDescription`, kept alive with it.
public struct DBusInterface: @unchecked Sendable {
    /// The GDBusInterfaceInfo.
    let pointer: UnsafeMutablePointer<GDBusInterfaceInfo>
    let owner: DBusInterfaceDescription
}

/// A list of descriptors sent with a call or received with one (GUnixFDList). The list keeps
/// its own copies and closes them when it goes.
public final class DBusFileDescriptors: @unchecked Sendable {
    public let pointer: UnsafeMutablePointer<GUnixFDList>

    /// An empty list to send.
    public init() { pointer = g_unix_fd_list_new() }

    /// Takes a reference of its own to a list someone else owns.
    public init(borrowing pointer: UnsafeMutablePointer<GUnixFDList>) {
        self.pointer = pointer
        g_object_ref(UnsafeMutableRawPointer(pointer))
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// How many descriptors the list holds.
    public var count: Int32 { g_unix_fd_list_get_length(pointer) }

    /// Adds a copy of `descriptor` (the caller keeps and closes its own); returns its index, the
    /// `h` value that names it.
    @discardableResult
    public func append(_ descriptor: Int32) throws(GLibError) -> Int32 {
        var error: UnsafeMutablePointer<GError>?
        let index = g_unix_fd_list_append(pointer, descriptor, &error)
        if index < 0 { throw GLibError(taking: &error, call: "g_unix_fd_list_append") }
        return index
    }

    /// A copy of the descriptor at `index`, which the caller closes; nil when there is none there
    /// (GLib would stop at a CRITICAL rather than say so).
    public func duplicate(at index: Int32) throws(GLibError) -> Int32? {
        guard index >= 0, index < count else { return nil }
        var error: UnsafeMutablePointer<GError>?
        let descriptor = g_unix_fd_list_get(pointer, index, &error)
        if descriptor < 0 { throw GLibError(taking: &error, call: "g_unix_fd_list_get") }
        return descriptor
    }
}
