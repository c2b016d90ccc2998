// Seed 000 (NSHipster, "UIActivityViewController"): the Mustachify custom activity, written as
// modern Swift. The only line that differs from the iOS version is the import.
import ShareSheetUIKit

extension UIActivity.ActivityType {
    /// The activity's reverse-DNS type, so it can be excluded and recognised in completion.
    static let mustachify = UIActivity.ActivityType("com.nshipster.activity.Mustachify")
}

/// The mustache styles the web service draws.
enum MustacheType: Int, Sendable {
    case english, horseshoe, imperial, chevron, natural, handlebar
}

/// The web (not file) URLs among `activityItems` whose path ends in `.jpg` or `.png`, in any case.
func matchingImageURLs(in activityItems: [Any]) -> [URL] {
    activityItems.compactMap { $0 as? URL }.filter { url in
        guard !url.isFileURL else { return false }
        return ["jpg", "png"].contains { url.pathExtension.caseInsensitiveCompare($0) == .orderedSame }
    }
}

/// Draws a mustache on the first JPEG or PNG web image among the items.
final class MustachifyActivity: UIActivity {
    /// Which mustache to draw; nil draws nothing.
    var mustacheType: MustacheType? = .english
    /// The mustachified image's address, known after `prepare(withActivityItems:)`.
    private(set) var imageURL: URL?

    override class var activityCategory: UIActivity.Category { .action }

    override var activityType: UIActivity.ActivityType? { .mustachify }

    override var activityTitle: String? { NSLocalizedString("Mustachify", comment: "activity title") }

    override var activityImage: UIImage? { UIImage(named: "MustachifyUIActivity") }

    override func canPerform(withActivityItems activityItems: [Any]) -> Bool {
        !matchingImageURLs(in: activityItems).isEmpty
    }

    override func prepare(withActivityItems activityItems: [Any]) {
        guard let firstMatch = matchingImageURLs(in: activityItems).first, let mustacheType else { return }
        // The article formats "http://mustachify.me/%d?src=%@"; URLComponents gives the same
        // address and escapes what a query must not contain.
        var components = URLComponents()
        components.scheme = "http"
        components.host = "mustachify.me"
        components.path = "/\(mustacheType.rawValue)"
        components.queryItems = [URLQueryItem(name: "src", value: firstMatch.absoluteString)]
        imageURL = components.url
    }

    // In UIKit the activity returns a view controller with a web view that loads `imageURL`.
    // A web view cannot be described to every presenter (a terminal, a window, a script), so the
    // closest portable form is the activity's interface: a screen titled "Mustachify" that shows
    // the image's address and is closed with "Done", the way the web view controller is closed.
    // Done finishes the activity (completed); Cancel finishes it with false. `returnedItems`
    // hands the address to the completion handler, so the caller can show the image itself.
    override var activityInterface: ActivityInterface? {
        guard let imageURL else { return nil }
        return ActivityInterface(
            title: activityTitle ?? "Mustachify", message: imageURL.absoluteString, fields: [],
            submitTitle: NSLocalizedString("Done", comment: "closes the mustachified image")
        ) { [weak self] _ in
            self?.returnedItems = [imageURL]
            self?.activityDidFinish(true)
        }
    }

    // Reached only when prepare found nothing to mustachify (no mustache chosen): nothing to show.
    override func perform() {
        activityDidFinish(false)
    }
}
