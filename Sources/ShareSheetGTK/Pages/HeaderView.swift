import CGtk
import Foundation
import ShareSheet
import Sharing

/// The sheet's header: a picture of the items and a line saying what they are, then what the
/// person may change about what is sent (SPEC §13): a strip of the items with a check on each
/// when there are several, and "Options" for photos (size, location) and text (edited before
/// the pick) when there are such items.
///
/// Only placeholders are read, so drawing the header never starts a provider. The choices go
/// to the controller through `ItemChoosing`; the header says how many items are sent.
@MainActor
final class HeaderView {
    let widget: Widget
    /// The second line ("3 files, 12 MB").
    private(set) var summary: String
    /// Runs with the sheet made again after items were left out or put back.
    var onSheetChange: (ActivitySheet) -> Void = { _ in }

    /// True when the person left every item out.
    var sendsNothing: Bool { !previews.isEmpty && choosing.current().leftOut.count >= previews.count }

    private let previews: [ItemPreview]
    private let choosing: ItemChoosing
    private let titleLabel: Widget
    private let summaryLabel: Widget
    /// Kept: they put thumbnails in when gdk-pixbuf has scaled them, and count bytes.
    private var picture: ItemPicture?
    private var strip: ItemStrip?
    private var photoOptions: PhotoOptionsView?
    private var textOptions: TextOptionsView?
    static let pictureSize: Int32 = 64

    init(previews: [ItemPreview], choosing: ItemChoosing) {
        self.previews = previews
        self.choosing = choosing
        let preview = SharePreview(previews: previews)
        summary = preview.summary
        titleLabel = Widgets.label(preview.title, classes: ["title-4"])
        gtk_label_set_lines(cg_label(titleLabel), 2)
        gtk_label_set_wrap(cg_label(titleLabel), 1)
        gtk_label_set_wrap_mode(cg_label(titleLabel), PANGO_WRAP_WORD_CHAR)
        summaryLabel = Widgets.label(preview.summary, classes: ["dim-label"])
        let text = Widgets.vertical(spacing: 4)
        gtk_widget_set_valign(text, GTK_ALIGN_CENTER)
        gtk_widget_set_hexpand(text, 1)
        Widgets.append(text, titleLabel, summaryLabel)
        let top = Widgets.horizontal(spacing: 12)
        widget = Widgets.vertical(spacing: 6)
        Widgets.append(widget, top)

        let choices = choosing.current()
        if previews.count > 1, choosing.letsItemsBeLeftOut {
            // Each item has its own picture in the strip; a picture of them all would repeat it.
            let strip = ItemStrip(previews: previews, leftOut: choices.leftOut)
            strip.onToggle = { [weak self] index, sent in self?.setSent(index, sent) }
            self.strip = strip
            Widgets.append(top, text)
            Widgets.append(widget, strip.widget)
        } else {
            let picture = ItemPicture(preview.artwork, title: preview.title, size: Self.pictureSize)
            gtk_widget_set_valign(picture.widget, GTK_ALIGN_START)
            self.picture = picture
            Widgets.append(top, picture.widget, text)
        }
        if let options = makeOptions(choices) { Widgets.append(widget, options) }
        showCount(choices.leftOut)
    }

    /// "Options", collapsed: photo size and location when an item is a photo, the text views
    /// when an item is text; nil when there is neither.
    private func makeOptions(_ choices: ItemChoices) -> Widget? {
        let content = Widgets.vertical(spacing: 12)
        gtk_widget_set_margin_top(content, 6)
        if previews.contains(where: { $0.kind.isImage }) {
            let photos = PhotoOptionsView(choices: choices) { [weak self] size, removingLocation in
                guard let self else { return nil }
                return await self.choosing.byteCount(self.sentItems(), size, removingLocation)
            }
            photos.onSize = { [weak self] size in self?.edit { $0.imageSize = size } }
            // Off is the default (removed when photos leave this computer), not "never".
            photos.onKeepsLocation = { [weak self] keeps in self?.edit { $0.keepsLocation = keeps ? true : nil } }
            photoOptions = photos
            Widgets.append(content, photos.widget)
        }
        let texts = previews.enumerated().compactMap { index, preview in
            (preview.placeholder as? String).map { (index: index, text: $0) }
        }
        if !texts.isEmpty {
            let view = TextOptionsView(texts: texts, edited: choices.editedTexts, itemCount: previews.count)
            view.onEdit = { [weak self] index, text in self?.edit { $0.editedTexts[index] = text } }
            textOptions = view
            Widgets.append(content, view.widget)
        }
        guard photoOptions != nil || textOptions != nil else { return nil }
        let expander = gtk_expander_new("Options")!
        cg_set_accessible_label(expander, "Options")
        gtk_expander_set_child(cg_expander(expander), content)
        Signals.connectNotify(expander, property: "expanded") { [weak self] in
            // The handler goes with the expander: the pointer is alive whenever it runs.
            guard gtk_expander_get_expanded(cg_expander(expander)) != 0 else { return }
            self?.photoOptions?.wasShown()
        }
        return expander
    }

    /// Changes the choices in place; nothing on the sheet changes with them.
    private func edit(_ change: (inout ItemChoices) -> Void) {
        var choices = choosing.current()
        change(&choices)
        _ = choosing.change(choices)
    }

    /// Leaves item `index` out or puts it back: the sheet is made again for the items sent,
    /// the title counts them and the photos' bytes are counted again. The focus stays on the
    /// check the person used.
    private func setSent(_ index: Int, _ sent: Bool) {
        var choices = choosing.current()
        if sent { choices.leftOut.remove(index) } else { choices.leftOut.insert(index) }
        guard let sheet = choosing.change(choices) else { return }
        showCount(choices.leftOut)
        photoOptions?.countBytes()
        onSheetChange(sheet)
    }

    /// The placeholders of the items sent, for the preparer's byte count.
    private func sentItems() -> [Any] {
        let leftOut = choosing.current().leftOut
        return previews.indices.filter { !leftOut.contains($0) }.map { previews[$0].placeholder }
    }

    /// The title and the line under it for the items sent: "2 of 3 items", and what those two
    /// are ("2 photos, 1.2 MB"); the whole preview when every item is sent.
    private func showCount(_ leftOut: Set<Int>) {
        let sent = previews.indices.filter { !leftOut.contains($0) }.map { previews[$0] }
        if sent.count == previews.count {
            let preview = SharePreview(previews: previews)
            Widgets.setText(titleLabel, preview.title)
            summary = preview.summary
        } else if sent.isEmpty {
            Widgets.setText(titleLabel, "None of \(previews.count) items")
            summary = "Check an item to send it."
        } else {
            Widgets.setText(titleLabel, "\(sent.count) of \(previews.count) items")
            summary = SharePreview(previews: sent).summary
        }
        Widgets.setText(summaryLabel, summary)
    }
}
