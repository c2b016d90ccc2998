import CGIO
import Foundation
import ShareSheet
import ShareSheetSystem
import UniformTypes

/// `share targets check FILE.desktop`: what is wrong with a share target's entry before anyone
/// installs it — its keys, the D-Bus service file that starts it, its `Exec=` line — and what
/// the sheet would offer it for.
public struct TargetEntryCheck: Sendable {
    /// One finding.
    public struct Finding: Sendable, Equatable {
        /// `problem` stops the target from ever being offered; `note` does not.
        public enum Severity: String, Sendable { case problem, note }
        public var severity: Severity
        public var message: String
    }

    /// The entry as the sheet reads it; nil when it is not a share target at all.
    public var target: ShareTarget?
    /// Every finding, problems first.
    public var findings: [Finding]
    /// What the sheet would offer the target for, one line per accepted type.
    public var offeredFor: [String]

    /// True when nothing stops the target.
    public var isValid: Bool { !findings.contains { $0.severity == .problem } }

    /// Checks the entry at `path` for `environment` (where its D-Bus service file is looked for).
    /// - Throws: `ShareError(.noInput)` when the file cannot be read.
    public static func check(path: String, environment: HostEnvironment) throws -> TargetEntryCheck {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ShareError(.noInput, "\(path): no such file or not readable")
        }
        let id = (path as NSString).lastPathComponent
        var problems: [String] = []
        var notes: [String] = []
        var target: ShareTarget?
        do {
            switch try DesktopEntryReader.read(path: path, desktopID: id) {
            case .notATarget:
                problems.append("no \(DesktopEntryReader.acceptsKey)= key: it is not a share target")
            case .hidden:
                notes.append("Hidden=true or its TryExec= program is not installed here: the sheet leaves it out")
                target = try? readIgnoringHidden(path: path, id: id)
            case .target(let read):
                target = read
            }
        } catch let problem as TargetEntryProblem {
            problems.append(problem.message)
        }
        if !id.hasSuffix(".desktop") { problems.append("the file name must end in .desktop") }
        var offeredFor: [String] = []
        if let target {
            if let problem = target.problem {
                // The reader joins its problems with "; ": one finding each.
                problems += problem.components(separatedBy: "; ")
            }
            problems += keyProblems(path: path)
            if case .dbus(let name)? = target.reach {
                let files = serviceFiles(for: name, environment: environment)
                if files.isEmpty {
                    problems.append(
                        "no D-Bus service file names \(name) in any dbus-1/services folder (\(serviceFolders(environment).map(\.path).joined(separator: ", "))): the bus cannot start it")
                } else {
                    notes.append("started by the D-Bus service file \(files[0])")
                }
                notes.append("called at \(ShareTarget.objectPath(forBusName: name)), interface org.sharesheet.Target1")
            }
            if case .exec(let commandLine)? = target.reach {
                problems += fieldCodeProblems(commandLine)
            }
            offeredFor = target.accepts?.rules.map(describe) ?? []
            notes.append("appears as \(target.name) (\(target.activityType.rawValue)), \"\(target.title)\" in the \(target.category == .share ? "share" : "action") row")
            let installed = TargetCatalog.folders(for: environment).contains { (path as NSString).deletingLastPathComponent.hasPrefix($0) }
            if !installed {
                notes.append("not in an applications folder: copy it to \(TargetCatalog.folders(for: environment)[0])/ to install it")
            }
        }
        let findings = problems.map { Finding(severity: .problem, message: $0) } + notes.map { Finding(severity: .note, message: $0) }
        return TargetEntryCheck(target: target, findings: findings, offeredFor: offeredFor)
    }

    /// The entry read as if its TryExec program were there, to check the rest of it.
    private static func readIgnoringHidden(path: String, id: String) throws -> ShareTarget? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let kept = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("TryExec=") && !$0.hasPrefix("Hidden=") }.joined(separator: "\n")
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("sharesheet-check-\(getpid())-\(id)")
        try kept.write(to: copy, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: copy) }
        guard case .target(var target) = try DesktopEntryReader.read(path: copy.path, desktopID: id) else { return nil }
        target.path = path
        // Its Exec= program is what TryExec checked: not installed here is not a fault of the entry.
        if let problem = target.problem, problem.hasPrefix("its program") { target.problem = nil }
        return target
    }

    /// The keys a desktop entry must have, which GIO does not check for a D-Bus target.
    private static func keyProblems(path: String) -> [String] {
        guard let keyFile = g_key_file_new() else { return [] }
        defer { g_key_file_free(keyFile) }
        guard g_key_file_load_from_file(keyFile, path, G_KEY_FILE_NONE, nil) != 0 else { return [] }
        var problems: [String] = []
        if g_key_file_has_group(keyFile, "Desktop Entry") == 0 { problems.append("no [Desktop Entry] group") }
        let type = DesktopEntryReader.string(keyFile, "Type")
        if type != "Application" { problems.append("Type=\(type ?? ""): a share target's entry is Type=Application") }
        if DesktopEntryReader.string(keyFile, "Name") == nil { problems.append("no Name=: the sheet has no title for it") }
        return problems
    }

    /// The desktop entry specification's rules for `%f`, `%F`, `%u`, `%U`: one of them at
    /// most, `%F` and `%U` as an argument of their own, none inside quotes.
    static func fieldCodeProblems(_ commandLine: String) -> [String] {
        var argc: Int32 = 0
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
        guard g_shell_parse_argv(commandLine, &argc, &argv, nil) != 0, let argv else {
            return ["Exec=\(commandLine): not a command line the desktop entry specification allows (unbalanced quotes?)"]
        }
        defer { g_strfreev(argv) }
        let arguments = (0..<Int(argc)).compactMap { argv[$0].map { String(cString: $0) } }
        let codes = ["%f", "%F", "%u", "%U"]
        var problems: [String] = []
        let used = arguments.flatMap { argument in codes.filter { argument.contains($0) } }
        if used.count > 1 { problems.append("Exec= has \(used.count) of %f, %F, %u, %U: one at most") }
        for argument in arguments where (argument.contains("%F") || argument.contains("%U")) && argument != "%F" && argument != "%U" {
            problems.append("Exec= argument '\(argument)': %F and %U must be an argument of their own")
        }
        if commandLine.range(of: #"["'][^"']*%[fFuU][^"']*["']"#, options: .regularExpression) != nil {
            problems.append("Exec= has a field code inside quotes, which the specification leaves undefined")
        }
        return problems
    }

    /// "public.image: images (image/png, image/jpeg, …), 1 to 10 at a time".
    private static func describe(_ rule: TargetAccepts.Rule) -> String {
        let limit: String
        switch (rule.minimum, rule.maximum) {
        case (1, nil): limit = "any number"
        case (let low, nil): limit = "\(low) or more"
        case (let low, let high?) where low == high: limit = "exactly \(low)"
        case (let low, let high?): limit = "\(low) to \(high)"
        }
        var forms: [String] = []
        if let type = rule.match.type {
            if rule.pattern.contains("/") { forms.append(type.identifier) } else if let mime = type.preferredMIMEType { forms.append(mime) }
            if type.conforms(to: .text) { forms.append("text items") }
            if type.conforms(to: .url) || type == .item { forms.append("links") }
        }
        let shown = forms.isEmpty ? "" : " [" + forms.joined(separator: ", ") + "]"
        return "\(rule.pattern): \(rule.match.noun)\(shown), \(limit) at a time"
    }

    /// `$XDG_DATA_HOME/dbus-1/services`, then each data dir's.
    static func serviceFolders(_ environment: HostEnvironment) -> [URL] {
        let directories = environment.directories
        return ([directories.dataHome] + directories.dataDirs).map { $0.appendingPathComponent("dbus-1/services") }
    }

    /// The service files whose `Name=` is `name`.
    static func serviceFiles(for name: String, environment: HostEnvironment) -> [String] {
        var found: [String] = []
        for folder in serviceFolders(environment) {
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for file in files.sorted() where file.hasSuffix(".service") {
                let path = folder.appendingPathComponent(file).path
                guard let keyFile = g_key_file_new() else { continue }
                defer { g_key_file_free(keyFile) }
                guard g_key_file_load_from_file(keyFile, path, G_KEY_FILE_NONE, nil) != 0,
                    let value = g_key_file_get_string(keyFile, "D-BUS Service", "Name", nil)
                else { continue }
                defer { g_free(value) }
                if String(cString: value) == name { found.append(path) }
            }
        }
        return found
    }
}
