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
        case .chooseActivity?: return "see share --help for the names"
        case nil: return nil
        case .changeSetting?:
            guard let setting else { return nil }
            guard let group = setting.group else { return "set it with \(ScriptedProgressPresenter.settingSyntax(setting.key, nil))" }
            return "`[\(group)] \(setting.key)=` in \(file)"
        }
    }

    /// The one line the command says for a failure: its message, then the advice. Advice that
    /// reads as an aside goes in parentheses ("asks for a PIN (give it with --set pin=…)");
    /// a step to take follows a colon ("…: run share accounts add vimeo").
    static func line(_ failure: ShareResult.Failure) -> String {
        guard let advice = advice(fix: failure.fix, setting: failure.setting, path: failure.path) else {
            return failure.message
        }
        switch failure.fix {
        case .givePin?, .chooseDevice?, .configureMailServer?, .chooseApplication?, .chooseActivity?, .changeSetting?,
            .useTerminal?:
            return "\(failure.message) (\(advice))"
        default:
            return "\(failure.message): \(advice)"
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

    /// A fallback's hint in the command's words.
    static func hint(for fallback: ActivityFallback) -> String? {
        advice(fix: fallback.fix, setting: fallback.setting, path: fallback.path) ?? fallback.hint
    }
}
