/// `share completions bash|zsh|fish`: completion scripts made from the declarations of the
/// command and its subcommands, with the activity names of this build and the installed targets.
enum Completions {
    /// The shells there is a script for.
    static let shells = ["bash", "zsh", "fish"]

    /// The script for `shell`.
    /// - Parameter settingKeys: per activity name, the keys `--set` takes for it (its settings
    ///   and field ids), in the order they are offered.
    @MainActor
    static func script(for shell: String, activityNames: [String], settingKeys: [String: [String]] = [:]) -> String? {
        let specs = Subcommands.specs
        let settings = SettingWords(byActivity: settingKeys, order: activityNames)
        switch shell {
        case "bash": return bash(specs, activityNames, settings)
        case "zsh": return zsh(specs, activityNames, settings)
        case "fish": return fish(specs, activityNames, settings)
        default: return nil
        }
    }

    /// The `KEY=` words `--set` completes to, per activity, and all of them for no activity.
    struct SettingWords {
        /// Activity name and its words, in the order of the activity names.
        var byActivity: [(name: String, words: [String])]
        /// Every activity's words, each once, sorted: offered when no `--activity` is given.
        var all: [String]

        init(byActivity keys: [String: [String]], order: [String]) {
            byActivity = order.compactMap { name in
                guard let keys = keys[name], !keys.isEmpty else { return nil }
                return (name, keys.map { $0 + "=" })
            }
            all = Array(Set(byActivity.flatMap(\.words))).sorted()
        }
    }

    // MARK: What each shell is told

    /// The words that complete the value of `option` (nil: any file).
    private static func valueWords(_ kind: ValueKind, activities: [String]) -> [String]? {
        switch kind {
        case .activity: return activities
        case .choices(let words): return words
        case .none, .file, .directory, .settings: return nil
        }
    }

    private static func optionNames(_ options: [OptionSpec]) -> [String] {
        (options + [.help]).map(\.name)
    }

    private static func quoted(_ words: [String]) -> String {
        words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    }

    // MARK: bash

    private static func bash(_ specs: [CommandSpec], _ activities: [String], _ settings: SettingWords) -> String {
        var valueCases = ""
        let allOptions = ShareOptions.all + specs.flatMap(\.allOptions)
        var seen = Set<String>()
        for option in allOptions where option.value != nil && seen.insert(option.name).inserted {
            switch option.kind {
            // File names split at line ends only: "a b;c.png" is one name.
            case .directory:
                valueCases += "        \(option.name)) local IFS=$'\\n'; COMPREPLY=($(compgen -d -- \"$cur\" || :)); return ;;\n"
            case .file:
                valueCases += "        \(option.name)) local IFS=$'\\n'; COMPREPLY=($(compgen -f -- \"$cur\" || :)); return ;;\n"
            case .none: valueCases += "        \(option.name)) return ;;\n"
            case .settings:
                // The keys of the activity named by --activity, else every activity's.
                var cases = ""
                for (name, words) in settings.byActivity {
                    cases += "                \(quoted([name]))) words=\(quoted([words.joined(separator: " ")])) ;;\n"
                }
                cases += "                *) words=\(quoted([settings.all.joined(separator: " ")])) ;;\n"
                valueCases += """
                            \(option.name))
                                local i activity= words=
                                for ((i = 1; i + 1 < cword; i++)); do
                                    [[ ${COMP_WORDS[i]} == --activity ]] && activity=${COMP_WORDS[i+1]}
                                done
                                case "$activity" in
                    \(cases)            esac
                                # KEY= is no file name: not quoted as one (starttls\\=), no space after.
                                compopt -o nospace +o filenames 2>/dev/null || :
                                COMPREPLY=($(compgen -W "$words" -- "$cur" || :)); return ;;

                    """
            case .activity, .choices:
                let words = valueWords(option.kind, activities: activities) ?? []
                valueCases += "        \(option.name)) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\" || :)); return ;;\n"
            }
        }
        var commandCases = ""
        for spec in specs {
            if spec.actions.isEmpty {
                let words = optionNames(spec.options).joined(separator: " ")
                commandCases += "        \(spec.name)) _share_words \"\(words)\" \(spec.operandKind == .none ? "" : "files") ;;\n"
                continue
            }
            var actionCases = ""
            for action in spec.actions {
                let words = optionNames(action.options) + (valueWords(action.operandKind, activities: activities) ?? [])
                actionCases += "                \(action.name)) _share_words \"\(words.joined(separator: " "))\" \(action.operandKind == .file ? "files" : "") ;;\n"
            }
            commandCases += """
                    \(spec.name))
                        if ((cword == 2)); then
                            _share_words "\(spec.actions.map(\.name).joined(separator: " ")) --help"
                        else
                            case "${COMP_WORDS[2]}" in
            \(actionCases)                esac
                        fi ;;

            """
        }
        let mainOptions = optionNames(ShareOptions.all.filter { $0.name != "--help" }).joined(separator: " ")
        return """
            # bash completion for share (made by `share completions bash`)
            _share_words() {
                COMPREPLY=($(compgen -W "$1" -- "$cur" || :))
                if [[ $2 == files && $cur != -* ]]; then
                    local IFS=$'\\n'
                    COMPREPLY+=($(compgen -f -- "$cur" || :))
                fi
                return 0
            }
            _share() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cword=$COMP_CWORD
                case "$prev" in
            \(valueCases)    esac
                if ((cword == 1)) && [[ $cur != -* ]]; then
                    _share_words "\(specs.map(\.name).joined(separator: " ")) help" files
                    return
                fi
                case "${COMP_WORDS[1]}" in
            \(commandCases)        help) _share_words "\(specs.map(\.name).joined(separator: " "))" ;;
                    *) _share_words "\(mainOptions)" files ;;
                esac
            }
            complete -o filenames -F _share share

            """
    }

    // MARK: zsh

    private static func zsh(_ specs: [CommandSpec], _ activities: [String], _ settings: SettingWords) -> String {
        var valueCases = ""
        var seen = Set<String>()
        for option in ShareOptions.all + specs.flatMap(\.allOptions) where option.value != nil && seen.insert(option.name).inserted {
            switch option.kind {
            case .directory: valueCases += "    \(option.name)) _files -/; return ;;\n"
            case .file: valueCases += "    \(option.name)) _files; return ;;\n"
            case .none: valueCases += "    \(option.name)) return ;;\n"
            case .settings:
                var cases = ""
                for (name, words) in settings.byActivity {
                    cases += "        \(quoted([name]))) compadd -S '' -- \(quoted(words)) ;;\n"
                }
                cases += "        *) compadd -S '' -- \(quoted(settings.all)) ;;\n"
                valueCases += """
                        \(option.name))
                          local activity= i
                          for (( i = 2; i < CURRENT - 1; i++ )); do [[ $words[i] == --activity ]] && activity=$words[i+1]; done
                          case $activity in
                    \(cases)      esac
                          return ;;

                    """
            case .activity, .choices:
                valueCases += "    \(option.name)) compadd -- \(quoted(valueWords(option.kind, activities: activities) ?? [])); return ;;\n"
            }
        }
        var commandCases = ""
        for spec in specs {
            if spec.actions.isEmpty {
                commandCases += "    \(spec.name)) compadd -- \(quoted(optionNames(spec.options)))\(spec.operandKind == .none ? "" : "; _files") ;;\n"
                continue
            }
            var actionCases = ""
            for action in spec.actions {
                let words = optionNames(action.options) + (valueWords(action.operandKind, activities: activities) ?? [])
                actionCases += "        \(action.name)) compadd -- \(quoted(words))\(action.operandKind == .file ? "; _files" : "") ;;\n"
            }
            commandCases += """
                \(spec.name))
                    if (( CURRENT == 3 )); then compadd -- \(quoted(spec.actions.map(\.name) + ["--help"])); return; fi
                    case $words[3] in
            \(actionCases)        esac ;;

            """
        }
        return """
            #compdef share
            # zsh completion for share (made by `share completions zsh`)
            _share() {
              case $words[CURRENT-1] in
            \(valueCases)  esac
              if (( CURRENT == 2 )) && [[ $words[CURRENT] != -* ]]; then
                compadd -- \(quoted(specs.map(\.name) + ["help"])); _files; return
              fi
              case $words[2] in
            \(commandCases)    help) compadd -- \(quoted(specs.map(\.name))) ;;
                *) compadd -- \(quoted(optionNames(ShareOptions.all.filter { $0.name != "--help" }))); _files ;;
              esac
            }
            if (( $+functions[compdef] )); then compdef _share share; fi

            """
    }

    // MARK: fish

    private static func fish(_ specs: [CommandSpec], _ activities: [String], _ settings: SettingWords) -> String {
        let names = specs.map(\.name).joined(separator: " ")
        var lines = [
            "# fish completion for share (made by `share completions fish`)",
            "complete -c share -e",
        ] + fishSetKeys(settings) + [
            "complete -c share -n 'not __fish_seen_subcommand_from \(names) help' -F",
            "complete -c share -n '__fish_use_subcommand' -x -a '\(names) help'",
            "complete -c share -n '__fish_seen_subcommand_from help' -x -a '\(names)'",
        ]
        func option(_ option: OptionSpec, condition: String) -> String {
            var line = "complete -c share -n '\(condition)' -l \(option.name.dropFirst(2))"
            if let short = option.short { line += " -s \(short.dropFirst())" }
            switch option.kind {
            case .activity, .choices:
                line += " -x -a \(quoted([(valueWords(option.kind, activities: activities) ?? []).joined(separator: " ")]))"
            case .file: line += " -r -F"
            case .directory: line += " -x -a '(__fish_complete_directories)'"
            case .none: if option.value != nil { line += " -x" }
            case .settings: line += " -x -a '(__share_set_keys)'"
            }
            return line + " -d \(quoted([option.summary]))"
        }
        for spec in ShareOptions.all {
            lines.append(option(spec, condition: "not __fish_seen_subcommand_from \(names)"))
        }
        for spec in specs {
            if spec.actions.isEmpty {
                for item in spec.options { lines.append(option(item, condition: "__fish_seen_subcommand_from \(spec.name)")) }
                continue
            }
            let actions = spec.actions.map(\.name).joined(separator: " ")
            lines.append(
                "complete -c share -n '__fish_seen_subcommand_from \(spec.name); and not __fish_seen_subcommand_from \(actions)' -x -a '\(actions)'")
            for action in spec.actions {
                let condition = "__fish_seen_subcommand_from \(spec.name); and __fish_seen_subcommand_from \(action.name)"
                for item in action.options { lines.append(option(item, condition: condition)) }
                if let words = valueWords(action.operandKind, activities: activities) {
                    lines.append("complete -c share -n '\(condition)' -x -a \(quoted([words.joined(separator: " ")]))")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A fish function printing the `KEY=` words of the activity named by `--activity`.
    private static func fishSetKeys(_ settings: SettingWords) -> [String] {
        var lines = [
            "function __share_set_keys",
            "    set -l tokens (commandline -opc)",
            "    set -l activity",
            "    for i in (seq 1 (math (count $tokens) - 1))",
            "        if test \"$tokens[$i]\" = --activity",
            "            set activity $tokens[(math $i + 1)]",
            "        end",
            "    end",
            "    switch \"$activity\"",
        ]
        for (name, words) in settings.byActivity {
            lines += ["        case \(quoted([name]))", "            printf '%s\\n' \(quoted(words))"]
        }
        lines += ["        case '*'", "            printf '%s\\n' \(quoted(settings.all))", "    end", "end"]
        return lines
    }
}
