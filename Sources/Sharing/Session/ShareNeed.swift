import ShareSheet

/// What the picked activity found missing or wrong only while it ran, and only a person can
/// give: the PIN a LocalSend receiver asks for. A share session asks for it through its front
/// end and runs the activity again with the answer.
public struct ShareNeed: Sendable, Equatable {
    /// The id of the activity's field the answer fills ("pin").
    public var field: String
    /// The field's label, as the activity's form shows it ("PIN").
    public var label: String
    /// What happened, in the activity's words, without advice for scripts: "AirDrop: Desk Laptop
    /// asks for a PIN", "AirDrop: Desk Laptop did not accept the PIN".
    public var reason: String
    /// True when the answer is typed unseen (a PIN, a password).
    public var isSecret: Bool
    /// The activity's title ("AirDrop").
    public var activityTitle: String
    /// How many times this need was asked before in this share: 0 the first time; more after
    /// an answer that did not do.
    public var earlierAnswers: Int

    /// Describes a need.
    public init(
        field: String, label: String, reason: String, isSecret: Bool, activityTitle: String, earlierAnswers: Int = 0
    ) {
        self.field = field
        self.label = label
        self.reason = reason
        self.isSecret = isSecret
        self.activityTitle = activityTitle
        self.earlierAnswers = earlierAnswers
    }

    /// The need an activity's failure states, or nil when the failure is not one a person can
    /// fix by answering (it names no field).
    /// - Parameter interface: the activity's form, for the field's label and secrecy.
    @MainActor
    static func of(
        _ error: (any Error)?, interface: ActivityInterface?, activityTitle: String, earlierAnswers: Int
    ) -> ShareNeed? {
        guard let error = error as? ShareError, error.kind != .cancelled, let field = error.field else { return nil }
        let shown = interface?.fields.first { $0.id == field }
        return ShareNeed(
            field: field, label: shown?.label ?? field, reason: withoutAdvice(error.message),
            isSecret: shown?.isSecret ?? false, activityTitle: activityTitle, earlierAnswers: earlierAnswers)
    }

    /// A message without the parenthesised advice a script would need ("(give it with …)"):
    /// a person is asked instead.
    static func withoutAdvice(_ message: String) -> String {
        guard message.hasSuffix(")"), let open = message.range(of: " (", options: .backwards) else { return message }
        return String(message[..<open.lowerBound])
    }
}
