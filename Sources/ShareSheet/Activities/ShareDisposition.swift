/// Where shared items went, in one word: what every front end reports beside `completed`.
public enum ShareDisposition: String, Sendable, Codable, CaseIterable {
    /// Delivered to a server (mail over SMTP, a file to a nearby device).
    case sent
    /// Kept locally to be sent later (the mail outbox without a server).
    case queued
    /// Written to a file or store here (Save to Photos, Save as PDF, the reading list).
    case saved
    /// Given to another application that takes it from here (a mail program, an SMS handler).
    case handedOff = "handed-off"
    /// Opened in the browser or another application (a web share page).
    case opened
    /// Put on the clipboard.
    case copied
    /// Published by a service's API.
    case posted
    /// Printed by a printer.
    case printed
    /// The person dismissed the sheet or cancelled.
    case cancelled
    /// The activity failed.
    case failed
}

/// What an activity did instead of the real thing because something is not set up, said in
/// words, with the one command or configuration key that changes it.
///
/// Beyond UIKit: a fallback is never silent. Every front end shows the message (the command on
/// standard error, the window in its last line) and puts the hint beside it.
public struct ActivityFallback: Sendable, Equatable, Codable {
    /// What happened, as a sentence ("No mail server is set up, so the message waits in the outbox.").
    public var message: String
    /// The one command or key that changes it ("set [mail] smtp= in ~/.config/sharesheet/config").
    public var hint: String

    /// Describes a fallback.
    public init(message: String, hint: String) {
        self.message = message
        self.hint = hint
    }
}
