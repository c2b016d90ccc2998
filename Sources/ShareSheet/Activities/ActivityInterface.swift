import Foundation

/// The extra input an activity needs, described once and rendered by every presenter.
///
/// The portable stand-in for UIKit's `activityViewController`: a terminal, a window or a script
/// all show the same fields. Submitting hands the values back to the activity, which carries on
/// and calls `activityDidFinish`; cancelling finishes the activity with `false`.
@MainActor
public struct ActivityInterface {
    /// The interface's title ("New Message").
    public var title: String
    /// A line of explanation under the title. An interface that describes its `sender` or
    /// `attachments` may repeat them here, in words, for presenters that draw neither: a
    /// presenter that draws them leaves the message out.
    public var message: String?
    /// The fields, in the order they are shown and asked.
    public var fields: [InterfaceField]
    /// The submit button's label.
    public var submitTitle: String
    /// Checks the values; returns a message per field id that is wrong (empty when all is well).
    public var validate: (InterfaceValues) -> [String: String]
    /// Receives the values when the person submits.
    public var onSubmit: (InterfaceValues) -> Void
    /// Runs when the person cancels; the controller then finishes the activity with `false`.
    public var onCancel: () -> Void
    /// What submitting these values will do, in a few short lines (recipients, attachments with
    /// their sizes, where it goes), for a person to read and confirm first; nil when submitting
    /// needs no confirmation. A presenter that asks field by field, so the person never sees the
    /// whole form at once (the terminal sheet), shows the lines after asking something and asks
    /// "`submitTitle`?" before it submits, cancelling the interface when the answer is no; a
    /// form that shows every field beside its submit button, a script, or a share whose every
    /// field was given ahead submits without asking. Only called with values that pass
    /// `problems(with:)`.
    public var confirmation: ((InterfaceValues) -> [String])?
    /// False when the advanced fields are not worth even a "More fields?" question in a
    /// presenter that asks one field at a time: they keep their defaults (or the values given
    /// ahead) unless the activity finds one wrong. A form may still show them behind its "More
    /// fields" expander. Print sets it when there is no printer: its dialog's details would
    /// only shape a PDF that is saved anyway.
    public var asksAdvancedFields = true
    /// The submit button's label for the values chosen now, when it depends on them (Print says
    /// "Save PDF" while Save as PDF is chosen); nil keeps `submitTitle`. Beyond UIKit.
    public var submitTitleForValues: ((InterfaceValues) -> String?)?
    /// Pictures of what submitting these values makes (a print job's first pages), for a form
    /// to show beside its fields and draw again when a value changes; nil when the activity has
    /// none. It works off the main actor. Beyond UIKit.
    public var preview: (@Sendable (InterfaceValues) async throws -> PreviewPages)?

    /// The submit button's label for `values`.
    public func submitTitle(for values: InterfaceValues) -> String {
        submitTitleForValues?(values) ?? submitTitle
    }
    /// Who the receiver sees the message from, for a presenter to show beside the fields (a
    /// window's From line, with a note when it is guessed); nil when the interface sends no
    /// message or the sender is not known here (a hand-off to the desktop's mail program).
    public var sender: InterfaceSender?
    /// The files that go with what is sent, with their sizes, for a presenter to list (the
    /// window draws them; `message` may say them in a line for presenters that do not).
    public var attachments: [InterfaceAttachment] = []

    /// Describes an interface.
    public init(
        title: String, message: String? = nil, fields: [InterfaceField], submitTitle: String = "Done",
        validate: @escaping (InterfaceValues) -> [String: String] = { _ in [:] },
        onCancel: @escaping () -> Void = {},
        onSubmit: @escaping (InterfaceValues) -> Void
    ) {
        self.title = title
        self.message = message
        self.fields = fields
        self.submitTitle = submitTitle
        self.validate = validate
        self.onCancel = onCancel
        self.onSubmit = onSubmit
    }

    /// Checks the required fields and the field kinds, then the activity's own rules.
    public func problems(with values: InterfaceValues) -> [String: String] {
        var problems: [String: String] = [:]
        for field in fields {
            if let problem = field.problem(with: values[field.id]) { problems[field.id] = problem }
        }
        return problems.merging(validate(values)) { builtIn, _ in builtIn }
    }
}

/// One input of an `ActivityInterface`.
@MainActor
public struct InterfaceField {
    /// What the field holds and how it is entered.
    public enum Kind {
        /// One line of text.
        case text
        /// Several lines of text.
        case multilineText
        /// A list of e-mail addresses.
        case emailAddresses
        /// A list of phone numbers.
        case phoneNumbers
        /// One option out of several; options may keep arriving (nearby devices, say).
        case choice(ChoiceOptions)
        /// On or off.
        case toggle
        /// A whole number in a range.
        case integer(ClosedRange<Int>)
    }

    /// The key under which the value is handed back (also the CLI's `--set` key).
    public var id: String
    /// The label shown to people.
    public var label: String
    /// What the field holds.
    public var kind: Kind
    /// True when the interface cannot be submitted without a value.
    public var isRequired: Bool
    /// The value shown before the person types anything.
    public var defaultValue: InterfaceValue?
    /// A hint shown with the field.
    public var help: String?
    /// True when `defaultValue` came from the caller's preset values (`--to`, `--set`), put there
    /// by the controller before any presenter sees the field; a presenter may skip asking.
    public var isPreset = false
    /// True for a detail most shares leave alone (Mail's Cc and Bcc, AirDrop's PIN): a front
    /// end may keep it behind a "more" step and ask it only when the person wants it. It is
    /// still submitted (with its default) and still settable with `--set`.
    public var isAdvanced = false
    /// True for text that must not show on the screen while it is typed (a PIN, a password):
    /// a terminal reads it with echo off, a window draws dots.
    public var isSecret = false
    /// Values a text field is usually given, for a presenter to list and filter as the person
    /// types and to pick from instead of typing (Assign to Contact's contacts, with their
    /// photos): each option's `id` is the text the field takes when it is picked, its `title`
    /// and `detail` what people see. The field still takes any other text.
    public var suggestedValues: [ChoiceOptions.Option] = []
    /// The most a text field holds, counted the receiver's way (a post's characters), for a
    /// presenter to count down; the activity's `validate` still says when the text is over.
    public var textLimit: TextLimit?

    /// Describes a field.
    public init(
        id: String, label: String, kind: Kind, isRequired: Bool = false,
        defaultValue: InterfaceValue? = nil, help: String? = nil, isAdvanced: Bool = false, isSecret: Bool = false
    ) {
        self.isAdvanced = isAdvanced
        self.isSecret = isSecret
        self.id = id
        self.label = label
        self.kind = kind
        self.isRequired = isRequired
        self.defaultValue = defaultValue
        self.help = help
    }

    /// Why `value` does not fit this field, or nil when it does.
    public func problem(with value: InterfaceValue?) -> String? {
        guard let value, !value.isEmpty else { return isRequired ? "\(label) is required" : nil }
        switch (kind, value) {
        case (.emailAddresses, .list(let addresses)):
            let bad = addresses.filter { !EmailAddress.isValid($0) }
            return bad.isEmpty ? nil : "not an e-mail address: \(bad.joined(separator: ", "))"
        case (.phoneNumbers, .list(let numbers)):
            let bad = numbers.filter { !PhoneNumber.isValid($0) }
            return bad.isEmpty ? nil : "not a phone number: \(bad.joined(separator: ", "))"
        case (.integer(let range), .integer(let number)):
            return range.contains(number) ? nil : "\(label) must be between \(range.lowerBound) and \(range.upperBound)"
        case (.choice(let options), .choice(let id)):
            return options.current.contains { $0.id == id } ? nil : "no such option: \(id)"
        case (.text, .text), (.multilineText, .text), (.toggle, .bool):
            return nil
        default:
            return "\(label) takes \(expectation)"
        }
    }

    /// What the field takes, in words, for a value of the wrong kind: "a whole number from 1 to 999".
    public var expectation: String {
        switch kind {
        case .text: return "one line of text"
        case .multilineText: return "text"
        case .emailAddresses: return "e-mail addresses, separated by commas"
        case .phoneNumbers: return "phone numbers, separated by commas"
        case .toggle: return "yes or no"
        case .integer(let range): return "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .choice(let options):
            let ids = options.current.map(\.id)
            return ids.isEmpty ? "one of the options shown" : "one of " + ids.joined(separator: ", ")
        }
    }

    /// Turns typed text into this field's kind of value (lists split on commas).
    public func value(fromText text: String) -> InterfaceValue? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch kind {
        case .text, .multilineText: return .text(text)
        case .emailAddresses, .phoneNumbers:
            return .list(trimmed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        case .toggle:
            switch trimmed.lowercased() {
            case "y", "yes", "true", "on", "1": return .bool(true)
            case "n", "no", "false", "off", "0", "": return .bool(false)
            default: return nil
            }
        case .integer: return Int(trimmed).map(InterfaceValue.integer)
        case .choice(let options):
            let current = options.current
            if let index = Int(trimmed), current.indices.contains(index - 1) { return .choice(current[index - 1].id) }
            let match = current.first { $0.id == trimmed || $0.title.caseInsensitiveCompare(trimmed) == .orderedSame }
            if let match { return .choice(match.id) }
            // The start of one option's title is enough ("beta" for "Beta Editor"), as long as
            // it names only that one.
            let starting = current.filter { $0.title.lowercased().hasPrefix(trimmed.lowercased()) }
            if !trimmed.isEmpty, starting.count == 1 { return .choice(starting[0].id) }
            // A choice that takes free text too (a device's address) makes it an option.
            guard !trimmed.isEmpty, let typed = options.optionForTypedText?(trimmed) else { return nil }
            options.append(typed)
            return .choice(typed.id)
        }
    }
}

/// The options of a choice field: a fixed list, or a list that grows while it is shown.
@MainActor
public final class ChoiceOptions {
    /// One option.
    public struct Option: Sendable, Hashable {
        /// The value handed back when it is chosen.
        public var id: String
        /// What people see.
        public var title: String
        /// A second line (device model, application comment…).
        public var detail: String?
        /// An icon name from the desktop's icon theme.
        public var iconName: String?
        /// True for an option to be wary of (a device showing a pinned device's name with another
        /// certificate): presenters show its detail with it, marked, not only on request.
        public var isWarning: Bool
        /// What sort of thing it is, in a word people use ("Phone", "Computer"), for a page that
        /// shows it apart from the detail; nil when the option does not say.
        public var kind: String?
        /// A picture file to show in place of the icon (a contact's photo); nil when there is none.
        public var imagePath: String?

        /// Describes an option.
        public init(
            id: String, title: String, detail: String? = nil, iconName: String? = nil, isWarning: Bool = false,
            kind: String? = nil, imagePath: String? = nil
        ) {
            self.imagePath = imagePath
            self.id = id
            self.title = title
            self.detail = detail
            self.iconName = iconName
            self.isWarning = isWarning
            self.kind = kind
        }
    }

    /// The options known so far.
    public private(set) var current: [Option]
    /// True once no more options will arrive.
    public private(set) var isComplete: Bool
    /// Makes an option of text the person typed that names none of the current options, for a
    /// choice that takes free text too (AirDrop: a device's HOST[:PORT]); nil refuses the text.
    /// When nil (the default), only the options can be chosen.
    public var optionForTypedText: ((String) -> Option?)?
    /// For options that a search finds (nearby devices): how long, in seconds, it looks before
    /// a presenter may say that nothing was found. The list stays open after it, as a late
    /// answer is still added. Nil for options that come from no search.
    public var searchPeriod: Double?
    /// Looks again (a window's Retry): the search asks anew and its period starts over; nil
    /// when the search cannot be repeated.
    public var searchAgain: (() -> Void)?
    private var observers: [(Option) -> Void] = []
    private var completionObservers: [() -> Void] = []

    /// A fixed list of options.
    public init(_ options: [Option]) {
        current = options
        isComplete = true
    }

    /// An empty list that `append(_:)` fills while the interface is shown.
    public init(streaming initial: [Option] = []) {
        current = initial
        isComplete = false
    }

    /// Adds an option that just became known (replacing one with the same id).
    public func append(_ option: Option) {
        if let index = current.firstIndex(where: { $0.id == option.id }) {
            current[index] = option
        } else {
            current.append(option)
        }
        for observer in observers { observer(option) }
    }

    /// Says that no more options will arrive.
    public func finish() {
        guard !isComplete else { return }
        isComplete = true
        for observer in completionObservers { observer() }
    }

    /// Calls `observer` for every option appended from now on.
    public func observe(_ observer: @escaping (Option) -> Void) { observers.append(observer) }

    /// Calls `observer` once when `finish()` says no more options will arrive (a window stops
    /// its "Searching…" spinner then).
    public func observeCompletion(_ observer: @escaping () -> Void) { completionObservers.append(observer) }
}

/// A value entered into an interface field.
public enum InterfaceValue: Sendable, Hashable {
    case text(String)
    case list([String])
    case choice(String)
    case bool(Bool)
    case integer(Int)

    /// True for empty text, an empty list or an empty choice.
    public var isEmpty: Bool {
        switch self {
        case .text(let text): return text.isEmpty
        case .list(let list): return list.isEmpty
        case .choice(let id): return id.isEmpty
        case .bool, .integer: return false
        }
    }

    /// The value as text, lists joined with commas.
    public var text: String {
        switch self {
        case .text(let text): return text
        case .list(let list): return list.joined(separator: ", ")
        case .choice(let id): return id
        case .bool(let flag): return flag ? "yes" : "no"
        case .integer(let number): return String(number)
        }
    }
}

/// The values of an interface's fields, by field id.
public typealias InterfaceValues = [String: InterfaceValue]

/// Checks e-mail addresses against RFC 5322's addr-spec (dot-atom local part or quoted string).
public enum EmailAddress {
    private static let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~")

    /// True when `address` is a valid `local@domain` mailbox (optionally `Name <local@domain>`).
    public static func isValid(_ address: String) -> Bool {
        var spec = Substring(address.trimmingCharacters(in: .whitespaces))
        if spec.hasSuffix(">"), let open = spec.lastIndex(of: "<") {
            spec = spec[spec.index(after: open)..<spec.index(before: spec.endIndex)]
        }
        guard let at = spec.lastIndex(of: "@") else { return false }
        let local = spec[..<at]
        let domain = spec[spec.index(after: at)...]
        return isValidLocalPart(local) && isValidDomain(domain)
    }

    private static func isValidLocalPart(_ local: Substring) -> Bool {
        if local.count >= 2, local.first == "\"", local.last == "\"" {
            // A quoted string: a quote or a backslash inside only as a quoted pair (\" or \\);
            // an unescaped quote would end the string early ("a"@b"@c reads back as "a"@b).
            var escaped = false
            for character in local.dropFirst().dropLast() {
                if character == "\n" || character == "\r" || character == "\r\n" { return false }
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    return false
                }
            }
            return !escaped
        }
        let atoms = local.split(separator: ".", omittingEmptySubsequences: false)
        return !atoms.isEmpty && atoms.allSatisfy { !$0.isEmpty && $0.allSatisfy(atext.contains) }
    }

    private static func isValidDomain(_ domain: Substring) -> Bool {
        if domain.hasPrefix("["), domain.hasSuffix("]") { return domain.count > 2 }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        return !labels.isEmpty && labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        }
    }
}

/// Checks phone numbers loosely: digits with the usual separators, an optional leading `+`.
public enum PhoneNumber {
    /// True when `number` has 3 to 17 digits and only `+ - . ( )` and spaces besides.
    public static func isValid(_ number: String) -> Bool {
        let trimmed = number.trimmingCharacters(in: .whitespaces)
        let body = trimmed.hasPrefix("+") ? trimmed.dropFirst() : Substring(trimmed)
        let digits = body.filter(\.isASCII).filter(\.isNumber).count
        return (3...17).contains(digits) && body.allSatisfy { ($0.isASCII && $0.isNumber) || " -.()".contains($0) }
    }
}

extension ActivityInterface {
    /// The interface with every field whose id has a preset value filled with it: the value
    /// becomes the field's `defaultValue` (text converted to the field's kind, as typed text
    /// would be) and `isPreset` is set. Applied by the controller, so every presenter sees it.
    func applyingPresets(_ presets: InterfaceValues) -> ActivityInterface {
        guard !presets.isEmpty else { return self }
        var filled = self
        filled.fields = fields.map { field in
            guard let preset = presets[field.id] else { return field }
            var field = field
            if case .text(let text) = preset {
                field.defaultValue = field.value(fromText: text) ?? preset
            } else {
                field.defaultValue = preset
            }
            field.isPreset = true
            return field
        }
        return filled
    }
}
