import ShareSheet
import Sharing
import Testing

@testable import ShareCommand

/// SPEC §11: one structured error, worded by each front end its own way. The command names its
/// options, keys and subcommands; the window (and the service's `error-hint`) says a plain
/// sentence with none of them.
@Suite("Command words")
@MainActor
struct CommandWordsTests {
    @Test("a PIN the receiver asks for: the command says --set pin=…, the window asks in plain words")
    func pin() {
        let failure = ShareResult.Failure(
            ShareError(.usage, "AirDrop: Desk asks for a PIN", field: "pin", fix: .givePin))
        #expect(CommandWords.line(failure) == "AirDrop: Desk asks for a PIN (give it with --set pin=…)")
        #expect(failure.plainAdvice == "Enter the PIN the receiving device shows.")
        #expect(failure.message == "AirDrop: Desk asks for a PIN")
    }

    @Test("an account to add: the command says run share accounts add, the window says add an account")
    func account() {
        let failure = ShareResult.Failure(
            ShareError(
                .configuration, "vimeo: Vimeo refused the account's token (expired or revoked)",
                setting: .init(group: "accounts", "vimeo"), fix: .addAccount))
        #expect(
            CommandWords.line(failure)
                == "vimeo: Vimeo refused the account's token (expired or revoked): run share accounts add vimeo")
        #expect(failure.plainAdvice == "Add an account for vimeo in the accounts settings.")
    }

    @Test("STARTTLS missing: the command names starttls=optional|off in [mail]; the window names no key")
    func startTLS() throws {
        let failure = ShareResult.Failure(
            ShareError(
                .configuration, "Mail: mx does not offer STARTTLS, which mail security requires unless set otherwise",
                setting: .init(group: "mail", "starttls"), fix: .chooseMailSecurity))
        let line = CommandWords.line(failure)
        #expect(line.contains("starttls=optional") && line.contains("starttls=off") && line.contains("[mail]"))
        let plain = try #require(failure.plainAdvice)
        #expect(!plain.contains("=") && !plain.contains("[mail]") && !plain.contains("--"))
    }

    @Test("the guessed From line: the fallback's hint in the command names [mail] from= and the file")
    func guessedFrom() {
        let fallback = ActivityFallback(
            message: "No From address is set up, so the message was sent from ana@desk.",
            setting: .init(group: "mail", "from"), fix: .setSender, path: "/home/ana/.config/sharesheet/config")
        #expect(CommandWords.hint(for: fallback) == "set `[mail] from=` in /home/ana/.config/sharesheet/config")
        #expect(fallback.plainAdvice == "Set your From address in the mail settings (/home/ana/.config/sharesheet/config).")
    }

    @Test("why an activity is not offered: the backend says the fact, the command adds its step")
    func unavailableReasons() {
        let flickr = Unavailability(
            "Flickr has no web share page, so it needs an account", setting: .init(group: "accounts", "flickr"),
            fix: .addAccount)
        #expect(
            CommandWords.reason(flickr)
                == "Flickr has no web share page, so it needs an account: run share accounts add flickr")
        let off = Unavailability("turned off", setting: .init(group: "targets", "org.example.Notes"), fix: .enableTarget)
        #expect(CommandWords.reason(off) == "turned off (share targets enable org.example.Notes)")
        #expect(CommandWords.reason(Unavailability("the service closed in 2020")) == "the service closed in 2020")
        #expect(PlainAdvice.sentence(fix: off.fix, setting: off.setting, path: nil)?.contains("share targets") == false)
    }

    @Test("a share target's timeout: --explain names [targets] timeout=, a failure says it gives it longer")
    func targetTimeout() {
        let timeout = ShareError.Setting(group: "targets", "timeout")
        #expect(CommandWords.line(ExplanationLine("timeout: 60 s", setting: timeout)) == "timeout: 60 s ([targets] timeout=)")
        #expect(CommandWords.line(ExplanationLine("entry: /x.desktop")) == "entry: /x.desktop")
        let failure = ShareResult.Failure(
            ShareError(
                .temporaryFailure, "Notes: org.example.Notes did not answer within 60 s", setting: timeout,
                fix: .allowMoreTime))
        #expect(
            CommandWords.line(failure)
                == "Notes: org.example.Notes did not answer within 60 s ([targets] timeout= gives it longer)")
        #expect(failure.plainAdvice == "Give it longer to answer (timeout in the targets settings).")
    }

    @Test("a copy without a display: the command's hint names share paste, then the backend's plain hint")
    func copyWithoutDisplay() {
        let fallback = ActivityFallback(
            message: "There is no display here, so the copy went to ShareSheet's own pasteboard file: /p",
            hint: "copies reach the desktop clipboard where WAYLAND_DISPLAY or DISPLAY is set", fix: .readPasteboard,
            path: "/p")
        #expect(
            CommandWords.hint(for: fallback)
                == "read it with `share paste`; copies reach the desktop clipboard where WAYLAND_DISPLAY or DISPLAY is set")
        #expect(fallback.plainAdvice?.contains("share paste") == false)
    }

    @Test("every fix: the command's words and the window's differ, and only the command's name syntax")
    func everyFix() {
        for fix in ShareError.Fix.allCases {
            let setting = ShareError.Setting(group: "mail", "smtp")
            let command = CommandWords.advice(fix: fix, setting: setting, path: "/tmp/config")
            let plain = PlainAdvice.sentence(fix: fix, setting: setting, path: "/tmp/config")
            #expect(command != nil && plain != nil, "\(fix)")
            #expect(command != plain, "\(fix)")
            let syntax = ["--", "share ", "=", "`"]
            #expect(!syntax.contains { plain?.contains($0) == true }, "\(fix): \(plain ?? "")")
        }
    }

    @Test("--json: the hint is the command's words, the facts stay beside it")
    func json() {
        let result = ShareResult(
            completed: false, disposition: .failed,
            error: .init(ShareError(.unavailable, "Mail: no SMTP server is configured", setting: .init(group: "mail", "smtp"), fix: .configureMailServer)))
        let worded = CommandWords.worded(result)
        #expect(worded.error?.hint == "[mail] smtp= or --set smtp=URL")
        #expect(worded.error?.fix == .configureMailServer)
        #expect(worded.error?.setting?.description == "mail.smtp")
        #expect(worded.json.contains(#""setting":"mail.smtp""#))
        #expect(CommandWords.line(result.error!) == "Mail: no SMTP server is configured ([mail] smtp= or --set smtp=URL)")
    }
}
