import Foundation
import ShareSheet
import Sharing

/// Short names for items and activities, as the terminal shows them.
public enum ItemLabel {
    /// A short name for an item: a file's name (line breaks escaped), a link, quoted text, a data item's name; for
    /// anything else (sources, images in memory…) nil, and the kind alone describes it.
    public static func name(of item: Any) -> String? {
        switch item {
        case let url as URL:
            return url.isFileURL ? FileNames.shown(url.lastPathComponent) : url.absoluteString
        case let text as String:
            return quoted(text)
        case let text as AttributedString:
            return quoted(String(text.characters))
        case let dataItem as DataItem:
            return dataItem.filename
        case let image as Image:
            return image.fileURL.map { FileNames.shown($0.lastPathComponent) }
        case let asset as Asset:
            return FileNames.shown(asset.fileURL.lastPathComponent)
        default:
            return nil
        }
    }

    /// Text in quotes, on one line, cut to 40 columns.
    static func quoted(_ text: String) -> String {
        let oneLine = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return "\"" + oneLine.truncated(to: 38) + "\""
    }
}

extension ActivityNames {
    /// What the terminal shows for `activity`: its title, and the name `share --activity`
    /// takes when that is not just its raw type (an application's own activity).
    func shown(_ activity: Activity) -> (title: String, commandName: String?) {
        let entry = entry(for: activity)
        return (entry.title, entry.name == entry.activityType ? nil : entry.name)
    }
}
