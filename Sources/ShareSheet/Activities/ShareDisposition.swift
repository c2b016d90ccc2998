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
/// words, with what changes it as facts: which setting, what kind of fix, which file.
///
/// Beyond UIKit: a fallback is never silent. Every front end shows the message (the command on
/// standard error, the window in its last line) and words the fix beside it in its own terms
/// (the command as its keys and commands, the window as a plain sentence).
public struct ActivityFallback: Sendable, Equatable, Codable {
    /// What happened, as a sentence ("No mail server is set up, so the message waits in the outbox.").
    public var message: String
    /// What changes it in plain words, when `fix` and `setting` do not say it all; never a
    /// command line or configuration syntax.
    public var hint: String?
    /// The setting that changes it (`mail.smtp`).
    public var setting: ShareError.Setting?
    /// What kind of fix changes it.
    public var fix: ShareError.Fix?
    /// The file that matters: the configuration file to edit.
    public var path: String?

    /// Describes a fallback.
    public init(
        message: String, hint: String? = nil, setting: ShareError.Setting? = nil, fix: ShareError.Fix? = nil,
        path: String? = nil
    ) {
        self.message = message
        self.hint = hint
        self.setting = setting
        self.fix = fix
        self.path = path
    }

    // Every key present, null when empty, like the rest of a share's result.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(message, forKey: .message)
        try container.encode(hint, forKey: .hint)
        try container.encode(setting, forKey: .setting)
        try container.encode(fix, forKey: .fix)
        try container.encode(path, forKey: .path)
    }

    private enum CodingKeys: String, CodingKey { case message, hint, setting, fix, path }
}
