/// One line an activity says about how it would act on the items (`share --explain`): the
/// words, and the setting that changes what the line says, if one does.
///
/// Words belong to the front end (SPEC §11): the text states the fact ("timeout: 60 s"); a
/// front end names the setting in its own words (the `share` command as a configuration key).
public struct ExplanationLine: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// What the line says, without a command line or configuration syntax.
    public var text: String
    /// The setting that changes what the line says (`targets.timeout`), if one does.
    public var setting: ShareError.Setting?

    /// A line that says `text`, changed by `setting` when one is given.
    public init(_ text: String, setting: ShareError.Setting? = nil) {
        self.text = text
        self.setting = setting
    }

    /// A line of words alone.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    public var description: String { text }
}
