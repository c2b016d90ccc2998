/// An activity that names its own icon (an application's own, a D-Bus caller's custom action,
/// a share target's desktop entry); every front end draws it with that icon.
@MainActor
public protocol ActivityIconNaming {
    /// A freedesktop icon name, or the absolute path of an image file (a desktop entry's `Icon=`
    /// may be either).
    var iconName: String { get }
}
