// Every option a command declares reaches what handles it: `share`'s own options change the
// invocation the way each declares, and each subcommand's reach the ParsedOptions its `run`
// reads. The tables below are checked to name every declared option, so an option added to a
// declaration without its expectation here fails, and so does one whose action is wrong.
import ShareSheet
import Sharing
import Testing

@testable import ShareCommand

@Suite("Every declared option reaches its handler")
struct DeclaredOptionsTests {
    /// What one option of `share` does: given after `alongside`, the invocation read from
    /// `alongside` alone changes by `change`, and by nothing else.
    struct Expectation: Sendable {
        /// A value to give the option; nil for a flag.
        var sample: String?
        /// Options the option needs beside it (`--pretty` needs `--json`).
        var alongside: [String] = []
        var change: @Sendable (inout Invocation) -> Void

        static func flag(alongside: [String] = [], _ change: @escaping @Sendable (inout Invocation) -> Void) -> Expectation {
            Expectation(sample: nil, alongside: alongside, change: change)
        }

        static func value(_ sample: String, _ change: @escaping @Sendable (inout Invocation) -> Void) -> Expectation {
            Expectation(sample: sample, change: change)
        }
    }

    /// Every spelling of every option of `share` (long names and short forms), and what it does.
    static let shareExpectations: [String: Expectation] = [
        "--text": .value("hello, world") { $0.items = [.text("hello, world")] },
        "--activity": .value("mail") { $0.mode = .activity("mail") },
        "--suggestion": .value("mail:ana@example.com") { $0.mode = .suggestion("mail:ana@example.com") },
        "--list": .flag { $0.mode = .list },
        "--explain": .value("print") { $0.mode = .explain("print") },
        "--subject": .value("Q3") { $0.subject = "Q3" },
        "--to": .value("ana@example.com, bo@example.com") { $0.recipients = ["ana@example.com", "bo@example.com"] },
        "--set": .value("smtp=smtp://127.0.0.1:2525") {
            $0.settings = [Invocation.Setting(field: "smtp", value: "smtp://127.0.0.1:2525")]
        },
        "--exclude": .value("print,mail") { $0.exclusions = ["print", "mail"] },
        "--app": .value("org.gnome.Evince") { $0.application = "org.gnome.Evince" },
        "--only": .value("1,3") { $0.only = "1,3" },
        "--size": .value("small") { $0.imageSize = .small },
        "--keep-location": .flag { $0.keepsLocation = true },
        "--json": .flag { $0.json = true },
        "--pretty": .flag(alongside: ["--json"]) { $0.pretty = true },
        "--quiet": .flag { $0.quiet = true },
        "--verbose": .flag { $0.verbose = true },
        "--gui": .flag { $0.sheetStyle = .window },
        "--terminal": .flag { $0.sheetStyle = .terminal },
        "--via-service": .flag { $0.viaService = true },
        "--service": .flag { $0.mode = .service },
        "--help": .flag { $0.mode = .help },
        "-h": .flag { $0.mode = .help },
        "--version": .flag { $0.mode = .version },
    ]

    @Test("the table of share's options names every declared option and spelling, and nothing else")
    func shareTableCoversTheDeclaration() {
        let spellings = ShareOptions.all.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }
        #expect(Set(spellings).count == spellings.count, "an option of share is declared twice")
        let table = Set(Self.shareExpectations.keys)
        #expect(Set(spellings).subtracting(table).sorted() == [], "declared, with no expectation here")
        #expect(table.subtracting(spellings).sorted() == [], "expected here, not declared")
        for option in ShareOptions.all {
            #expect(
                (Self.shareExpectations[option.name]?.sample != nil) == (option.value != nil),
                "\(option.name): the table and the declaration disagree on whether it takes a value")
        }
    }

    @Test("each option of share changes the invocation the way it declares, and nothing else")
    func shareOptionsReachTheInvocation() throws {
        for (spelling, expectation) in Self.shareExpectations {
            let before = try Invocation.parse(expectation.alongside)
            var expected = before
            expectation.change(&expected)
            #expect(expected != before, "\(spelling): the expected change changes nothing")
            let given = [spelling] + (expectation.sample.map { [$0] } ?? [])
            #expect(try Invocation.parse(expectation.alongside + given) == expected, "\(spelling)")
            // Among items it does the same, and the items stay in their order.
            var amongItems = expected
            amongItems.items = [.operand("notes.txt")] + expected.items + [.standardInput]
            #expect(try Invocation.parse(["notes.txt"] + expectation.alongside + given + ["-"]) == amongItems, "\(spelling)")
            if let sample = expectation.sample {
                #expect(try Invocation.parse(expectation.alongside + ["\(spelling)=\(sample)"]) == expected, "\(spelling)=")
            } else if spelling.hasPrefix("--") {
                #expect(throws: ShareError.self, "\(spelling)=x") { try Invocation.parse(expectation.alongside + ["\(spelling)=x"]) }
            }
        }
    }

    @Test("an option of share that may be given once refuses a second time; a repeatable one adds up")
    func shareRepetition() throws {
        for option in ShareOptions.all {
            guard let expectation = Self.shareExpectations[option.name], let sample = expectation.sample else { continue }
            let twice = [option.name, sample, option.name, sample]
            if option.repeatable {
                let invocation = try Invocation.parse(twice)
                #expect(invocation != (try Invocation.parse([option.name, sample])), "\(option.name) given twice counts once")
            } else {
                #expect(usageError(twice) == "\(option.name) can be given only once", "\(option.name)")
            }
        }
        // The recipients and items keep their command-line order.
        let invocation = try Invocation.parse(["--to", "a", "a.txt", "--text", "t", "--to=b,c", "-", "--", "--list", "-"])
        #expect(invocation.recipients == ["a", "b", "c"])
        #expect(invocation.items == [.operand("a.txt"), .text("t"), .standardInput, .operand("--list"), .standardInput])
        #expect(invocation.mode == .sheet)
        // A value is taken as it is, even when it looks like an option or is a `-`.
        let values = try Invocation.parse(["--subject", "--list", "--text", "-", "--to=--json"])
        #expect(values.subject == "--list" && values.items == [.text("-")] && values.recipients == ["--json"])
        #expect(values.mode == .sheet && !values.json)
    }

    @Test("share's usage errors read as they always have")
    func shareMessages() {
        #expect(usageError(["--lsit"]) == "unknown option '--lsit' (did you mean '--list'?)")
        #expect(usageError(["--zzzzzzzzzz"]) == "unknown option '--zzzzzzzzzz' (see share --help)")
        #expect(usageError(["-x"]) == "unknown option '-x' (see share --help)")
        #expect(usageError(["notes.txt", "--activity"]) == "--activity needs a value")
        #expect(usageError(["--json=yes"]) == "--json takes no value")
        #expect(usageError(["--list", "--activity", "mail"]) == "--list and --activity cannot be used together")
        #expect(usageError(["--list", "--activity", "a", "--activity", "b"]) == "--list and --activity cannot be used together")
        #expect(usageError(["--list", "--list"]) == "--list can be given only once")
        #expect(usageError(["--service", "--service"]) == "--service can be given only once")
        #expect(usageError(["--gui", "--terminal"]) == "--gui and --terminal cannot be used together")
        #expect(usageError(["--set", "=x"]) == "--set needs FIELD=VALUE, got '=x'")
        #expect(usageError(["--set", "novalue"]) == "--set needs FIELD=VALUE, got 'novalue'")
        #expect(usageError(["--pretty", "x"]) == "--pretty works only with --json")
        #expect(usageError(["--explain", "mail", "--json"]) == "--json works with --list, --activity or the sheet, not with --explain")
        // --help wins over everything; --version over everything else; neither is taken for another.
        #expect((try? Invocation.parse(["--version", "--list", "--help", "x"]))?.mode == .help)
        #expect((try? Invocation.parse(["--pretty", "--version"]))?.mode == .version)
        #expect((try? Invocation.parse(["--gui", "--gui", "--json", "--json"]))?.sheetStyle == .window)
    }

    // MARK: Subcommands

    /// A sample value for every value option of every subcommand, by `COMMAND [ACTION] OPTION`;
    /// nil for a flag.
    static let subcommandSamples: [String: String?] = [
        "open --app": "org.gnome.Evince",
        "reading-list list --unread": nil,
        "reading-list list --json": nil,
        "reading-list list --pretty": nil,
        "reading-list mark-read --unread": nil,
        "reading-list export --format": "json",
        "reading-list export --output": "list.json",
        "reading-list import --format": "html",
        "contacts list --json": nil,
        "contacts list --pretty": nil,
        "contacts show --json": nil,
        "contacts show --pretty": nil,
        "outbox list --json": nil,
        "outbox list --pretty": nil,
        "outbox flush --set": "smtp=smtp://127.0.0.1:2525",
        "outbox flush --quiet": nil,
        "outbox flush --verbose": nil,
        "paste --type": "text/plain",
        "paste --types": nil,
        "paste --json": nil,
        "paste --pretty": nil,
        "accounts list --json": nil,
        "accounts list --pretty": nil,
        "accounts add --instance": "mastodon.example",
        "receive --accept-all": nil,
        "receive --pin": "1234",
        "receive --port": "53318",
        "receive --once": nil,
        "receive --folder": "/tmp/in",
        "receive --timeout": "5",
        "receive --quiet": nil,
        "receive --verbose": nil,
        "targets list --json": nil,
        "targets list --pretty": nil,
        "history list --json": nil,
        "history list --pretty": nil,
        "history forget --target": "alice@example.org",
        "devices list --json": nil,
        "devices list --pretty": nil,
        "devices list --scan": "3",
        "suggestions --text": "see you at 6",
        "suggestions --explain": nil,
        "suggestions --json": nil,
        "suggestions --pretty": nil,
    ]

    /// Every option list a subcommand reads arguments against: `COMMAND [ACTION]` and its options.
    @MainActor
    static var subcommandForms: [(form: String, options: [OptionSpec])] {
        Subcommands.specs.flatMap { spec in
            spec.actions.isEmpty
                ? [(spec.name, spec.options)] : spec.actions.map { ("\(spec.name) \($0.name)", $0.options) }
        }
    }

    @MainActor
    @Test("the table of subcommand options names every option of every subcommand and action, and nothing else")
    func subcommandTableCoversTheDeclarations() {
        var declared: Set<String> = []
        for (form, options) in Self.subcommandForms {
            for option in options {
                #expect(declared.insert("\(form) \(option.name)").inserted, "\(form) declares \(option.name) twice")
                let sample = Self.subcommandSamples["\(form) \(option.name)"]
                #expect(sample.map { ($0 != nil) == (option.value != nil) } ?? true, "\(form) \(option.name): flag or value?")
            }
        }
        let table = Set(Self.subcommandSamples.keys)
        #expect(declared.subtracting(table).sorted() == [], "declared, with no entry here")
        #expect(table.subtracting(declared).sorted() == [], "in the table, not declared")
    }

    @MainActor
    @Test("each option of each subcommand reaches the options its run reads, and only its own")
    func subcommandOptionsReachTheirCommand() throws {
        for (form, options) in Self.subcommandForms {
            for option in options {
                guard case .some(let sample) = Self.subcommandSamples["\(form) \(option.name)"] else { continue }
                var spellings = [[option.name] + (sample.map { [$0] } ?? [])]
                if let sample { spellings.append(["\(option.name)=\(sample)"]) }
                for given in spellings {
                    let parsed = try ParsedOptions.parse(given + ["operand"], options: options, command: form)
                    #expect(parsed.operands == ["operand"], "\(form) \(given)")
                    #expect(!parsed.wantsHelp)
                    if let sample {
                        #expect(parsed.value(option.name) == sample && parsed.all(option.name) == [sample], "\(form) \(given)")
                        #expect(parsed.flags.isEmpty && parsed.values.count == 1, "\(form) \(given)")
                    } else {
                        #expect(parsed.flag(option.name) && parsed.flags == [option.name], "\(form) \(given)")
                        #expect(parsed.values.isEmpty, "\(form) \(given)")
                    }
                }
                guard let sample else { continue }
                let twice = [option.name, sample, option.name, sample]
                if option.repeatable {
                    #expect(try ParsedOptions.parse(twice, options: options, command: form).all(option.name) == [sample, sample])
                } else {
                    #expect(
                        throws: ShareError(.usage, "\(form): \(option.name) can be given only once"),
                        "\(form) \(option.name)"
                    ) { try ParsedOptions.parse(twice, options: options, command: form) }
                }
                #expect(
                    throws: ShareError(.usage, "\(form): \(option.name) needs a value (\(option.value ?? ""))"),
                    "\(form) \(option.name)"
                ) { try ParsedOptions.parse([option.name], options: options, command: form) }
            }
            #expect(try ParsedOptions.parse(["-h"], options: options, command: form).wantsHelp)
            #expect(try ParsedOptions.parse(["--", "--help", "-"], options: options, command: form).operands == ["--help", "-"])
        }
    }

    private func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try Invocation.parse(arguments)
            return nil
        } catch let error as ShareError where error.kind == .usage {
            return error.message
        } catch {
            return "not a usage error: \(error)"
        }
    }
}
