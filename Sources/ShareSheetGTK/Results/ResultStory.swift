import Foundation
import ShareSheet
import Sharing

/// What the window's result page says and offers, made from the structured facts of an outcome
/// (`ActivityFallback`, `ShareResult.Failure`, the disposition and location), never parsed from
/// their text: a short title, one plain sentence of what happened and what would fix it, the
/// buttons that fix or follow up, and the technical detail for the Details expander.
struct ResultStory: Equatable {
    /// A button of the page, with what it works on.
    enum Action: Equatable {
        /// Opens the file with the desktop's default application.
        case open(path: String)
        /// Shows the file in the file manager.
        case showInFiles(path: String)
        /// Shows what waits in the outbox (the queued file) in the file manager.
        case openOutbox(path: String)
        /// Runs the share again through the session.
        case retry
        /// Sends what waits in the outbox at `path` now, once the settings changed: "Retry"
        /// too, as the person sees it, but the share is not run again (that would queue a
        /// second copy beside the waiting one).
        case sendWaiting(path: String)
        /// Opens the settings window, where the fix is made.
        case settings
        /// Closes the window.
        case close

        /// The button's title, which is also its accessible name.
        var title: String {
            switch self {
            case .open(let path): return path.lowercased().hasSuffix(".pdf") ? "Open PDF" : "Open"
            case .showInFiles: return "Show in Files"
            case .openOutbox: return "Open Outbox"
            case .retry, .sendWaiting: return "Retry"
            case .settings: return "Settings…"
            case .close: return "Close"
            }
        }
    }

    /// A themed icon name.
    var icon: String
    var title: String
    var sentence: String
    /// Lines for the Details expander; empty for none.
    var details: [String]
    /// The buttons in order, the most useful first; Close is always there, last.
    var actions: [Action]

    // MARK: A send the person stopped

    /// The person stopped `activity` while it sent and nothing of it was kept: it says so, so
    /// nobody wonders whether it went or waits somewhere.
    static func stopped(_ activity: String) -> ResultStory {
        ResultStory(
            icon: "process-stop", title: "Cancelled",
            sentence: "\(activity) was stopped before it finished. Nothing waits to be sent.", details: [], actions: [.close])
    }

    // MARK: A fallback

    /// What the activity did instead, with the buttons that follow it up.
    static func fallback(
        _ fallback: ActivityFallback, disposition: ShareDisposition?, location: String?, activityType: ActivityType?
    ) -> ResultStory {
        let fix = FixWords.sentence(fallback.fix, setting: fallback.setting, disposition: disposition)
        let file = location.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
        var actions: [Action] = []
        var title: String
        var happened = fallback.message
        switch disposition {
        case .queued?:
            title = activityType == .mail ? "Mail is waiting in the outbox" : activityType == .message ? "The message is waiting in the outbox" : "Waiting in the outbox"
            if fallback.setting == .init(group: "mail", "smtp") {
                happened = "No mail server is set up yet, so the message is kept on this computer."
            } else if fallback.setting == .init(group: "message", "via") {
                happened = "Nothing that sends text messages is set up yet, so the message is kept on this computer."
            }
            if let file { actions.append(.openOutbox(path: file)) }
        case .saved?:
            title = fallback.fix == .addPrinter ? "Saved as PDF" : "Saved"
            if fallback.fix == .addPrinter, let file {
                happened = "There is no printer, so the document was saved as \(Self.name(of: file)) in \(Self.folderName(of: file))."
            }
            if let file { actions += [.open(path: file), .showInFiles(path: file)] }
        case .sent?: title = "Sent"
        case .handedOff?: title = "Handed to another app"
        default: title = "Done another way"
        }
        if FixWords.opensSettings(fallback.fix, setting: fallback.setting) { actions.append(.settings) }
        actions.append(.close)
        return ResultStory(
            icon: disposition == .saved ? "document-save" : disposition == .queued ? "mail-send" : "dialog-information",
            title: title, sentence: [happened, fix].compactMap { $0 }.joined(separator: " "),
            details: Self.details(
                said: fallback.message, hint: fallback.hint, setting: fallback.setting,
                file: fallback.path.map { "Settings file: \($0)" }, kept: location),
            actions: actions)
    }

    // MARK: A failure

    /// A failure: what went wrong in words, Retry when it may go through another time.
    /// - Parameter canRetry: true when the window can run the share again (a share session runs it).
    static func failure(_ failure: ShareResult.Failure, activityType: ActivityType?, canRetry: Bool) -> ResultStory {
        let mayGoThrough = failure.code == .temporaryFailure || failure.code == .unavailable
        let happened: String
        var fallbackFix: String?
        switch failure.code {
        case .temporaryFailure:
            happened = "It did not go through this time; nothing is lost."
            fallbackFix = "Try again in a moment."
        case .unavailable:
            happened = "What it needs cannot be reached right now."
            fallbackFix = "Try again later."
        case .ioError:
            happened = "A file or folder could not be read or written."
            // The backend names which only in its own sentence: point there rather than guess.
            fallbackFix = "Details say which one and why."
        case .noInput: happened = "Something to share is missing or cannot be read."
        case .badData: happened = "Something to share cannot be used this way."
        case .configuration: happened = "A setting is not right."
        case .usage, .cancelled: happened = "It cannot be shared this way."
        }
        let fix = FixWords.sentence(failure.fix, setting: failure.setting, disposition: nil) ?? fallbackFix
        return ResultStory(
            icon: "dialog-error", title: Self.failureTitle(activityType),
            sentence: [happened, fix].compactMap { $0 }.joined(separator: " "),
            details: Self.details(
                said: failure.message, hint: failure.hint, setting: failure.setting,
                file: failure.path.map { "The file concerned: \($0)" }, kept: nil),
            actions: (mayGoThrough && canRetry ? [.retry] : [])
                + (FixWords.opensSettings(failure.fix, setting: failure.setting) ? [.settings] : []) + [.close])
    }

    /// "Could not send", "Could not print"…: what the activity could not do, in two words.
    private static func failureTitle(_ type: ActivityType?) -> String {
        switch type {
        case .mail?, .message?, .airDrop?, .postToMastodon?, .postToTwitter?, .postToFacebook?, .postToWeibo?,
            .postToFlickr?, .postToVimeo?, .postToTencentWeibo?:
            return "Could not send"
        case .print?: return "Could not print"
        case .saveToCameraRoll?: return "Could not save"
        case .copyToPasteboard?: return "Could not copy"
        case .addToReadingList?: return "Could not add to the Reading List"
        case .openIn?: return "Could not open"
        default: return "Could not share"
        }
    }

    // MARK: After the settings changed

    /// The same page once the settings were saved: what waits in the outbox can go now, so
    /// Retry comes first (a failure that could go through has it already).
    func offeringToSendWaiting(_ location: String?) -> ResultStory {
        guard let location, !actions.contains(.retry), !actions.contains(.sendWaiting(path: location)),
            actions.contains(where: { if case .openOutbox = $0 { return true } else { return false } })
        else { return self }
        var story = self
        story.actions.insert(.sendWaiting(path: location), at: 0)
        return story
    }

    /// What waited in the outbox went out after all.
    static func sentWaiting(activityType: ActivityType?) -> ResultStory {
        ResultStory(
            icon: "mail-send", title: "Sent",
            sentence: activityType == .mail || activityType == nil
                ? "The message went to the mail server; nothing waits in the outbox any more." : "It went; nothing waits any more.",
            details: [], actions: [.close])
    }

    // MARK: Details

    /// The technical detail, worded for a person where the facts allow: the backend's own
    /// sentence and hint, the setting it concerns, the file that matters (already a line), where
    /// the work is kept.
    private static func details(
        said: String, hint: String?, setting: ShareError.Setting?, file: String?, kept: String?
    ) -> [String] {
        var lines = [said]
        if let hint { lines.append(hint) }
        if let setting {
            let place = setting.group.map { " in the \($0) settings" } ?? ""
            lines.append("It concerns the setting “\(setting.key)”\(place).")
        }
        if let file { lines.append(file) }
        if let kept { lines.append("Kept at: \(kept)") }
        return lines
    }

    private static func name(of path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }

    private static func folderName(of path: String) -> String {
        URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent
    }
}
