import ShareSheet

/// The command's exit statuses (sysexits, SPEC §4), declared once: `Termination` takes each
/// kind of failure's status from here, and `share --help`, the man page and the README's table
/// print these words.
enum ExitStatuses {
    /// One exit status and what it means.
    struct Entry: Sendable, Equatable {
        /// The status.
        var status: Int32
        /// What it means, as `--help` says it.
        var meaning: String
        /// The kind of failure that ends with it; nil for 0 and 1, which are not failures.
        var kind: ShareError.Kind?
    }

    /// Every status the command ends with, lowest first.
    static let all: [Entry] = [
        Entry(status: 0, meaning: "done"),
        Entry(status: 1, meaning: "the activity did not complete"),
        Entry(status: 64, meaning: "usage: an unknown option, activity or --set key", kind: .usage),
        Entry(status: 65, meaning: "bad data: an item or value that cannot be used", kind: .badData),
        Entry(status: 66, meaning: "missing or unreadable input", kind: .noInput),
        Entry(status: 69, meaning: "activity unavailable for these items", kind: .unavailable),
        Entry(status: 74, meaning: "I/O error", kind: .ioError),
        Entry(status: 75, meaning: "temporary failure: queued in the outbox, retry later", kind: .temporaryFailure),
        Entry(status: 78, meaning: "configuration error: the config file, a setting, a token", kind: .configuration),
        Entry(status: 130, meaning: "dismissed", kind: .cancelled),
    ]

    /// The status of a kind of failure.
    static func status(of kind: ShareError.Kind) -> Int32 {
        // Every kind has its row: a test checks it.
        all.first { $0.kind == kind }?.status ?? 1
    }

    /// The "Exit status:" lines of `share --help`.
    static var helpLines: String {
        all.map { CommandHelp.row(String($0.status), $0.meaning) }.joined()
    }

    /// The EXIT STATUS section's body in the man page.
    static var manPageLines: String {
        all.map { ".TP\n.B \($0.status)\n" + ManPage.escape($0.meaning) + "\n" }.joined()
    }
}
