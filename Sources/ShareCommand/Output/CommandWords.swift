import ShareSheet
import Sharing

/// How the command words a backend's facts (SPEC §11): the fix and the setting as its own
/// options (`--set pin=…`, `--to`), configuration keys (`[mail] smtp=`) and subcommands
/// (`share outbox flush`). Backends say what is wrong and what kind of fix would do; only
/// here do those become things to type.
enum CommandWords {
    /// The configuration file named when the facts name none.
    static let configurationFile = "~/.config/sharesheet/config"

    /// The advice for the facts as the command's options and keys, or nil when they name no fix.
    static func advice(fix: ShareError.Fix?, setting: ShareError.Setting?, path: String?) -> String? {
        let file = path ?? configurationFile
        switch fix {
        case .configureMailServer?: return "[mail] smtp= or --set smtp=URL"
        case .chooseMailSecurity?:
            return "set starttls=optional (TLS when offered) or starttls=off (a local relay) in [mail]"
        case .setSender?: return "set `[mail] from=` in \(file)"
        case .configureMessaging?:
            return "set `[message] via=kdeconnect` and `kdeconnect-device=ID` in \(file), "
                + "or install an sms: handler such as KDE Connect, then run `share outbox flush`"
        case .addPrinter?: return "add a printer in CUPS, then choose it with --set printer=NAME or `[print] printer=` in \(file)"
        case .choosePrinter?: return "choose one with --set printer=NAME"
        case .addAccount?: return "run share accounts add \(setting?.key ?? "SERVICE")"
        case .protectFile?: return "run chmod 600 on it, or share accounts add again"
        case .givePin?: return "give it with \(ScriptedProgressPresenter.settingSyntax("pin", nil))"
        case .chooseDevice?: return "give one with --to HOST[:PORT]"
        case .chooseApplication?: return "or pick one with --app ID"
        case .flushOutbox?:
            if let setting, setting.group == "mail", setting.key == "smtp" {
                return "send it with `share outbox flush` once `[mail] smtp=` is set in \(file)"
            }
            return "send it later with share outbox flush"
        case .useTerminal?: return "--terminal"
        case .allowMoreTime?:
            guard let setting else { return nil }
            return "\(key(setting)) gives it longer"
        case .enableTarget?: return "share targets enable \(setting?.key ?? "NAME")"
        case .readPasteboard?: return "read it with `share paste`"
        case .chooseActivity?: return "see share --help for the names"
        case nil: return nil
        case .changeSetting?:
            guard let setting else { return nil }
            guard let group = setting.group else { return "set it with \(ScriptedProgressPresenter.settingSyntax(setting.key, nil))" }
            return "`[\(group)] \(setting.key)=` in \(file)"
        }
    }

    /// A setting as the command names it: `[group] key=` in the configuration file, or the
    /// option that gives a setting without a group.
    static func key(_ setting: ShareError.Setting) -> String {
        setting.group.map { "[\($0)] \(setting.key)=" } ?? ScriptedProgressPresenter.settingSyntax(setting.key, nil)
    }

    /// The one line the command says for a failure: its message, then the advice. Advice that
    /// reads as an aside goes in parentheses ("asks for a PIN (give it with --set pin=…)");
    /// a step to take follows a colon ("…: run share accounts add vimeo").
    static func line(_ failure: ShareResult.Failure) -> String {
        joined(failure.message, fix: failure.fix, setting: failure.setting, path: failure.path)
    }

    /// Why an activity is not offered, as `--list` and `--explain` say it: the reason, then the
    /// advice ("Flickr has no web share page, so it needs an account: run share accounts add
    /// flickr", "turned off (share targets enable notes)").
    static func reason(_ why: Unavailability) -> String {
        joined(why.reason, fix: why.fix, setting: why.setting, path: why.path)
    }

    /// A line of `--explain` with the setting that changes it named as a key: "timeout: 60 s
    /// ([targets] timeout=)".
    static func line(_ line: ExplanationLine) -> String {
        guard let setting = line.setting else { return line.text }
        return "\(line.text) (\(key(setting)))"
    }

    /// `message` and the advice for the facts: in parentheses when it reads as an aside, after
    /// a colon when it is a step to take.
    private static func joined(
        _ message: String, fix: ShareError.Fix?, setting: ShareError.Setting?, path: String?
    ) -> String {
        guard let advice = advice(fix: fix, setting: setting, path: path) else { return message }
        switch fix {
        case .givePin?, .chooseDevice?, .configureMailServer?, .chooseApplication?, .chooseActivity?, .changeSetting?,
            .useTerminal?, .allowMoreTime?, .enableTarget?:
            return "\(message) (\(advice))"
        default:
            return "\(message): \(advice)"
        }
    }

    /// The result as the command prints it under `--json`: every hint in the command's words
    /// (the facts stay beside it).
    static func worded(_ result: ShareResult) -> ShareResult {
        var result = result
        if var error = result.error {
            error.hint = advice(fix: error.fix, setting: error.setting, path: error.path) ?? error.hint
            result.error = error
        }
        if var fallback = result.fallback {
            fallback.hint = hint(for: fallback)
            result.fallback = fallback
        }
        return result
    }

    /// A fallback's hint in the command's words: the advice for its facts, then its own plain
    /// hint, if any ("read it with `share paste`; copies reach the desktop clipboard where…").
    static func hint(for fallback: ActivityFallback) -> String? {
        let parts = [advice(fix: fallback.fix, setting: fallback.setting, path: fallback.path), fallback.hint].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
