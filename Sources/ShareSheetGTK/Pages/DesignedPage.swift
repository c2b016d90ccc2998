import CGtk

/// A page made for one activity, drawn from its interface in place of the generic form (SPEC
/// §7, "designed, not generated"). It hands the values to the controller as the form would, so
/// the activity sees no difference.
@MainActor
protocol DesignedPage: AnyObject {
    /// The page's content, under the window's header bar.
    var widget: Widget { get }
    /// Gives the focus to where a person starts (a search, the first device or application).
    func focus()
    /// Cancels the share (Cancel, Escape, the close button).
    func cancel()
}

extension AirDropPage: DesignedPage {}
extension ContactPickerPage: DesignedPage {}
extension ApplicationChooserPage: DesignedPage {}
