// The share service's clients against the real service on a private bus (ServiceBus activates
// the built `share --service`): `share --via-service`, Examples/dbus-client.c and
// Examples/dbus-client.py; and what `make install` adds for the service and the file managers.
import Foundation
import LocalTestSupport
import ShareServiceProtocol
import ShareSheetClient
import Sharing
import Testing

@Suite("Clients of the share service", .serialized)
struct ServiceClientTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sunset = Sample.url("sunset.png")
    static let notes = Sample.url("notes.txt")

    // MARK: share --via-service

    @Test("--via-service --activity copy --text hi --json prints the local command's result, word for word")
    func copyPrintsTheSameJSON() async throws {
        try await withBus { home, bus in
            let remote = try await Share.run(
                ["--via-service", "--activity", "copy", "--text", "hi", "--json"], home: home, extra: bus.environment)
            #expect(remote.status == 0, "\(remote.standardError)\nservice: \(bus.logTail())")
            let object = try #require(
                try JSONSerialization.jsonObject(with: remote.output) as? [String: Any], "stdout: \(remote.standardOutput)")
            #expect(object["activity"] as? String == "copy")
            #expect(object["disposition"] as? String == "copied")
            #expect(object["completed"] as? Bool == true)
            #expect(try await bus.ownerPID() != nil, "the service ran it")
            // The same share done here, in the same home: the same output, standard error and status.
            let local = try await Share.run(["--activity", "copy", "--text", "hi", "--json"], home: home)
            #expect(remote.standardOutput == local.standardOutput)
            #expect(remote.standardError == local.standardError)
            #expect(remote.status == local.status)
        }
    }

    @Test("--via-service --activity photos FILE: the file reaches Pictures through a descriptor, its path printed")
    func photosSavesTheFile() async throws {
        try await withBus { home, bus in
            let run = try await Share.run(
                ["--via-service", "--activity", "photos", Self.sunset.path], home: home, extra: bus.environment)
            #expect(run.status == 0, "\(run.standardError)\nservice: \(bus.logTail())")
            #expect(home.entries(home.pictures) == ["sunset.png"])
            let saved = home.pictures.appendingPathComponent("sunset.png")
            #expect(filesAreIdentical(saved, Self.sunset))
            #expect(run.standardOutput == saved.path + "\n")
        }
    }

    @Test("standard input is sniffed as share - does: text goes as text")
    func standardInputText() async throws {
        try await withBus { home, bus in
            let input = try home.file("input.txt", Data("hello from a pipe\n".utf8))
            let run = try runShare(
                ["--via-service", "--activity", "copy", "-"], home: home, environment: bus.environment, input: input)
            #expect(run.status == 0, "\(run.standardError)\nservice: \(bus.logTail())")
            let pasted = try await Share.run(["paste"], home: home)
            #expect(pasted.standardOutput == "hello from a pipe", "\(pasted.standardError)")
        }
    }

    @Test("failures end as the local command's do: unavailable 69, missing file 66, unknown activity 64")
    func failuresMatchTheLocalCommand() async throws {
        try await withBus { home, bus in
            for arguments in [
                ["--activity", "photos", Self.notes.path], ["--activity", "copy", "missing.txt"],
                ["--activity", "no-such-thing", "--text", "x"],
            ] {
                let remote = try await Share.run(["--via-service"] + arguments, home: home, extra: bus.environment)
                let local = try await Share.run(arguments, home: home)
                #expect(remote.status == local.status, "\(arguments): \(remote.standardError)")
                #expect(remote.standardError == local.standardError, "\(arguments)")
                #expect(remote.standardOutput == local.standardOutput, "\(arguments)")
                #expect([69, 66, 64].contains(remote.status))
            }
        }
    }

    @Test("--via-service --list --json is --list --json for the same items, answered by ListActivities")
    func listMatchesTheLocalListing() async throws {
        try await withBus { home, bus in
            for arguments in [
                ["--text", "hi", "https://swift.org"], [Self.sunset.path], [Self.notes.path, "--exclude", "copy"],
            ] {
                let remote = try await Share.run(
                    ["--via-service", "--list", "--json"] + arguments, home: home, extra: bus.environment)
                #expect(remote.status == 0, "\(arguments): \(remote.standardError)\nservice: \(bus.logTail())")
                let local = try await Share.run(["--list", "--json"] + arguments, home: home)
                #expect(local.status == 0, "\(local.standardError)")
                #expect(remote.standardOutput == local.standardOutput, "\(arguments)")
                #expect(remote.standardError == local.standardError, "\(arguments)")
            }
            #expect(try await bus.ownerPID() != nil, "the service answered")
            // The listing for people, too.
            let remote = try await Share.run(["--via-service", "--list", "--text", "hi"], home: home, extra: bus.environment)
            let local = try await Share.run(["--list", "--text", "hi"], home: home)
            #expect(remote.standardOutput == local.standardOutput)
            #expect(remote.standardOutput.contains("Share row:"))
        }
    }

    @Test("--via-service --explain: offered and in which row, or not offered and why (69), from ListActivities")
    func explainThroughTheService() async throws {
        try await withBus { home, bus in
            let offered = try await Share.run(
                ["--via-service", "--explain", "copy", "--text", "hi"], home: home, extra: bus.environment)
            #expect(offered.status == 0, "\(offered.standardError)\nservice: \(bus.logTail())")
            #expect(offered.standardOutput.hasPrefix("Copy (copy, com.apple.UIKit.activity.CopyToPasteboard)\nitems:\n"))
            #expect(offered.standardOutput.hasSuffix("offered: in the action row\n"), "\(offered.standardOutput)")
            let refused = try await Share.run(
                ["--via-service", "--explain", "photos", Self.notes.path], home: home, extra: bus.environment)
            let local = try await Share.run(["--explain", "photos", Self.notes.path], home: home)
            #expect(refused.status == 69)
            let notOffered = refused.standardOutput.split(separator: "\n").last { $0.hasPrefix("not offered: ") }
            #expect(notOffered != nil, "\(refused.standardOutput)")
            #expect(notOffered.map { local.standardOutput.contains($0) } == true, "local: \(local.standardOutput)")
            let unknown = try await Share.run(
                ["--via-service", "--explain", "no-such-thing", "--text", "x"], home: home, extra: bus.environment)
            let unknownHere = try await Share.run(["--explain", "no-such-thing", "--text", "x"], home: home)
            #expect(unknown.status == 64)
            #expect(unknown.standardError == unknownHere.standardError)
        }
    }

    // MARK: ShareClient (the Swift client product)

    @Test("ShareClient gives the ShareResult share --json gives: text, a file by descriptor, a refusal")
    func swiftClient() async throws {
        try await withBus { home, bus in
            let client = ShareClient(busAddress: bus.address)
            let copied = try await client.share([.text("hi")], WireOptions(activity: "copy", interactive: false))
            #expect(copied.disposition == .copied, "service: \(bus.logTail())")
            let copiedHere = try await Share.run(["--activity", "copy", "--text", "hi", "--json"], home: home)
            var here = try JSONDecoder().decode(ShareResult.self, from: copiedHere.output)
            // The command words the fallback's facts as its own advice (SPEC §11), a library
            // caller gets the facts and the backend's own hint: the same result otherwise.
            #expect(here.fallback?.hint?.contains("share paste") == true, "\(copiedHere.standardOutput)")
            #expect(copied.fallback?.hint?.contains("share paste") == false, "\(String(describing: copied.fallback))")
            here.fallback?.hint = copied.fallback?.hint
            #expect(copied == here)

            let saved = try await client.share([.file(Self.sunset)], WireOptions(activity: "photos", interactive: false))
            #expect(saved.completed)
            #expect(saved.location == home.pictures.appendingPathComponent("sunset.png").path)
            #expect(filesAreIdentical(home.pictures.appendingPathComponent("sunset.png"), Self.sunset))

            let refused = try await client.share([.file(Self.notes)], WireOptions(activity: "photos", interactive: false))
            #expect(refused.error?.code == .unavailable)
            let refusedHere = try await Share.run(["--activity", "photos", Self.notes.path, "--json"], home: home)
            #expect(refused == (try JSONDecoder().decode(ShareResult.self, from: refusedHere.output)), "\(refusedHere.standardOutput)")
        }
    }

    @Test("no service to reach: 69 naming why, from the bus or from the missing bus")
    func notRunning() async throws {
        let home = try TemporaryHome(prefix: "service-client")
        defer { home.remove() }
        let bus = try ServiceBus.start(home: home, service: ["/bin/sh", "-c", "exit 7"])
        defer { bus.stop() }
        let refused = try await Share.run(
            ["--via-service", "--activity", "copy", "--text", "hi"], home: home, extra: bus.environment)
        #expect(refused.status == 69)
        #expect(
            refused.standardError
                == "share: the share service is not running and could not be started: Process org.sharesheet.ShareSheet exited with status 7\n")
        let socket = home.root.appendingPathComponent("no-bus").path
        let noBus = try await Share.run(
            ["--via-service", "--activity", "copy", "--text", "hi", "--json"], home: home,
            extra: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(socket)"])
        #expect(noBus.status == 69)
        #expect(noBus.standardError.hasPrefix("share: the share service is not running and could not be started: cannot connect"))
        let object = try JSONSerialization.jsonObject(with: noBus.output) as? [String: Any]
        #expect((object?["error"] as? [String: Any])?["code"] as? String == "unavailable")
    }

    @Test("without --activity the sheet is the service's window; picking Copy there ends the command with 0")
    func sheetInTheServiceWindow() async throws {
        try await withDesktopAndBus { home, desktop, bus in
            let started = try Share.start(["--via-service", "--json", "--text", "from the sheet"], home: home, extra: bus.environment)
            let driver = AccessibilityDriver(session: desktop, pid: try await bus.servicePID())
            try await driver.click(name: "Copy", role: "push button")
            let run = try await Share.finish(started, timeout: 60)
            #expect(run.status == 0, "\(run.standardError)\nservice: \(bus.logTail())")
            let object = try JSONSerialization.jsonObject(with: run.output) as? [String: Any]
            #expect(object?["activity"] as? String == "copy")
            #expect(object?["disposition"] as? String == "copied")
        }
    }

    @Test("Ctrl-C while the sheet is open closes the request: the window goes, the command ends with 130")
    func interruptClosesTheRequest() async throws {
        try await withDesktopAndBus { home, desktop, bus in
            let started = try Share.start(["--via-service", "--json", "--text", "never mind"], home: home, extra: bus.environment)
            let driver = AccessibilityDriver(session: desktop, pid: try await bus.servicePID())
            try await driver.wait(name: "Copy", role: "push button")
            kill(started.pid, SIGINT)
            let run = try await Share.finish(started, timeout: 30)
            #expect(run.signal == 0, "ended by the signal, not by the command")
            #expect(run.status == 130, "\(run.standardError)\nservice: \(bus.logTail())")
            let object = try JSONSerialization.jsonObject(with: run.output) as? [String: Any]
            #expect(object?["disposition"] as? String == "cancelled")
            try await driver.waitGone(name: "Copy", role: "push button")
        }
    }

    @Test("cancelling ShareClient's task while the sheet is open closes the request: the window goes, the result is cancelled")
    func swiftClientCancelled() async throws {
        try await withDesktopAndBus { home, desktop, bus in
            let client = ShareClient(busAddress: bus.address)
            let task = Task { try await client.share([.text("never mind")]) }
            let driver = AccessibilityDriver(session: desktop, pid: try await bus.servicePID())
            try await driver.wait(name: "Copy", role: "push button")
            task.cancel()
            let result = try await task.value
            #expect(result.disposition == .cancelled, "service: \(bus.logTail())")
            #expect(result.error?.code == .cancelled)
            try await driver.waitGone(name: "Copy", role: "push button")
        }
    }

    // MARK: The examples

    @Test("Examples/dbus-client.c compiles with -Werror and shares a file by descriptor")
    func cExample() async throws {
        try await withBus { home, bus in
            let program = home.root.appendingPathComponent("dbus-client")
            let flags = try await Command.run("/usr/bin/pkg-config", ["--cflags", "--libs", "gio-unix-2.0"])
            let words = flags.standardOutput.split(whereSeparator: \.isWhitespace).map(String.init)
            let compiled = try await Command.run(
                "/usr/bin/cc",
                ["-Wall", "-Wextra", "-Werror", "-o", program.path, Self.repository.appendingPathComponent("Examples/dbus-client.c").path]
                    + words)
            #expect(compiled.status == 0, "\(compiled)")
            let run = try await Command.run(program.path, [Self.sunset.path, "photos"], environment: bus.environment)
            #expect(run.status == 0, "\(run)\nservice: \(bus.logTail())")
            let saved = home.pictures.appendingPathComponent("sunset.png")
            #expect(run.standardOutput.hasPrefix("response 0\n"), "\(run)")
            #expect(run.standardOutput.contains("disposition 'saved'\n"), "\(run)")
            #expect(run.standardOutput.contains("location '\(saved.path)'\n"), "\(run)")
            #expect(filesAreIdentical(saved, Self.sunset))
        }
    }

    @Test("Examples/dbus-client.py shares a file by descriptor and is the README's example")
    func pythonExample() async throws {
        try await withBus { home, bus in
            let script = Self.repository.appendingPathComponent("Examples/dbus-client.py")
            let run = try await Command.run(script.path, [Self.notes.path, "copy"], environment: bus.environment)
            #expect(run.status == 0, "\(run)\nservice: \(bus.logTail())")
            #expect(run.standardOutput.hasPrefix("0 {"), "\(run)")
            #expect(run.standardOutput.contains("'disposition': 'copied'"), "\(run)")
            let pasted = try await Share.run(["paste", "--types"], home: home)
            #expect(pasted.standardOutput.contains("text/uri-list"), "\(pasted.standardOutput)")
        }
        // The README shows the script's code, from its imports down.
        let code = try String(contentsOf: Self.repository.appendingPathComponent("Examples/dbus-client.py"), encoding: .utf8)
        let fromImports = try #require(code.range(of: "import os, sys\n"))
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```python\n" + code[fromImports.lowerBound...] + "```\n"))
    }

    // MARK: make install

    @Test("make install-dbus-service install-file-manager-actions: the files with the installed share, Thunar's other actions kept")
    func installTargets() throws {
        let home = try TemporaryHome(prefix: "service-install")
        defer { home.remove() }
        let prefix = home.root.appendingPathComponent("prefix")
        let installed = prefix.appendingPathComponent("bin/share").path
        // A uca.xml with the user's own action, as Thunar writes it.
        let thunar = home.home.appendingPathComponent(".config/Thunar", isDirectory: true)
        try FileManager.default.createDirectory(at: thunar, withIntermediateDirectories: true)
        let uca = thunar.appendingPathComponent("uca.xml")
        let users = """
            <?xml version="1.0" encoding="UTF-8"?>
            <actions>
            <action>
            \t<icon>utilities-terminal</icon>
            \t<name>Open Terminal Here</name>
            \t<unique-id>1700000000000000-1</unique-id>
            \t<command>exo-open --working-directory %f --launch TerminalEmulator</command>
            \t<description>Example for a custom action</description>
            \t<patterns>*</patterns>
            \t<startup-notify/>
            \t<directories/>
            </action>
            </actions>

            """
        try Data(users.utf8).write(to: uca)
        let environment = ["HOME": home.home.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        func make() throws -> Command.Result {
            try Command.run(
                "/usr/bin/make",
                ["--no-print-directory", "-C", Self.repository.path, "install-dbus-service", "install-file-manager-actions",
                 "PREFIX=\(prefix.path)"],
                environment: environment)
        }
        let made = try make()
        #expect(made.status == 0, "\(made)")

        let service = try String(
            contentsOf: prefix.appendingPathComponent("share/dbus-1/services/org.sharesheet.ShareSheet.service"), encoding: .utf8)
        let front = prefix.appendingPathComponent("libexec/sharesheet-service").path
        #expect(service == "[D-BUS Service]\nName=org.sharesheet.ShareSheet\nExec=\"\(front)\"\n")

        let run = "\"\(installed)\" --via-service --gui"
        let nautilus = prefix.appendingPathComponent("share/nautilus/scripts/Share…")
        let nemo = prefix.appendingPathComponent("share/nemo/actions/sharesheet.nemo_action")
        let dolphin = prefix.appendingPathComponent("share/kio/servicemenus/sharesheet.desktop")
        #expect(try lines(nautilus).contains("exec \(run) -- $selected"))
        #expect(try lines(nemo).contains("Exec=\(run) %F"))
        #expect(try lines(dolphin).contains("Exec=\(run) %F"))
        #expect(try mode(nautilus) == 0o755)
        #expect(try mode(nemo) == 0o644)
        #expect(try mode(dolphin) == 0o755, "KF6 runs only executable service menus")
        #expect(try lines(nemo).first == "[Nemo Action]")
        // desktop-file-validate knows only applications: a KDE service menu's type, its
        // all/allfiles and its actions are all it may object to.
        let validated = try Command.run("/usr/bin/desktop-file-validate", [dolphin.path])
        let objections = validated.standardOutput.split(separator: "\n").filter {
            !$0.contains("\"all/allfiles\"") && !$0.contains("the type is \"Service\"")
        }
        #expect(objections.isEmpty, "\(validated)")

        // Thunar: ours added before </actions>, the user's action byte for byte, the XML well formed.
        let after = try String(contentsOf: uca, encoding: .utf8)
        let userPart = users.replacingOccurrences(of: "</actions>\n", with: "")
        #expect(after.hasPrefix(userPart))
        #expect(after.hasSuffix("</action>\n</actions>\n"))
        #expect(after.contains("\t<command>\(run) %F</command>\n"))
        #expect(after.components(separatedBy: "<unique-id>sharesheet-share</unique-id>").count == 2)
        let parsed = try Command.run(
            ServiceClient.python, ["-c", "import sys, xml.dom.minidom as m; print(len(m.parse(sys.argv[1]).getElementsByTagName('action')))", uca.path])
        #expect(parsed.standardOutput == "2\n", "\(parsed)")

        // Again: nothing changes, nothing is left behind.
        let again = try make()
        #expect(again.status == 0, "\(again)")
        #expect(try String(contentsOf: uca, encoding: .utf8) == after)
        #expect(home.entries(thunar) == ["uca.xml"])
        for folder in ["share/dbus-1/services", "share/nautilus/scripts", "share/nemo/actions", "share/kio/servicemenus"] {
            #expect(home.entries(prefix.appendingPathComponent(folder)).count == 1, "\(folder)")
        }

        // No uca.xml yet: one is made with our action only (XDG_CONFIG_HOME is where Thunar looks).
        let configHome = home.root.appendingPathComponent("config-home")
        let fresh = try Command.run(
            "/usr/bin/make",
            ["--no-print-directory", "-C", Self.repository.path, "install-file-manager-actions", "PREFIX=\(prefix.path)"],
            environment: environment.merging(["XDG_CONFIG_HOME": configHome.path]) { _, given in given })
        #expect(fresh.status == 0, "\(fresh)")
        let made2 = try String(contentsOf: configHome.appendingPathComponent("Thunar/uca.xml"), encoding: .utf8)
        #expect(made2.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<actions>\n<action>\n"))
        #expect(made2.contains("<unique-id>sharesheet-share</unique-id>"))
    }

    // MARK: Helpers

    /// A test home and a private bus that activates the built `share --service` in it.
    private func withBus(_ body: (TemporaryHome, ServiceBus) async throws -> Void) async throws {
        let home = try TemporaryHome(prefix: "service-client")
        defer { home.remove() }
        let bus = try ServiceBus.start(home: home)
        defer { bus.stop() }
        try await body(home, bus)
    }

    /// The same with a desktop (display and accessibility bus) the service's window opens on.
    private func withDesktopAndBus(
        _ body: (TemporaryHome, DesktopSession, ServiceBus) async throws -> Void
    ) async throws {
        let home = try TemporaryHome(prefix: "service-client")
        defer { home.remove() }
        let desktop = try DesktopSession.start(in: home.root.appendingPathComponent("desktop", isDirectory: true))
        defer { desktop.stop() }
        let bus = try ServiceBus.start(home: home, desktop: desktop)
        defer { bus.stop() }
        try await body(home, desktop, bus)
    }

    /// Runs `share` with standard input from `input`.
    private func runShare(
        _ arguments: [String], home: TemporaryHome, environment: [String: String], input: URL
    ) throws -> Command.Result {
        guard let share = Share.url else { throw Share.MissingBinary() }
        let command = ["/bin/sh", "-c", "exec \"$0\" \"$@\" < \"$SHARE_INPUT\"", share.path] + arguments
        var environment = environment
        environment["SHARE_INPUT"] = input.path
        return try Command.run(command[0], Array(command.dropFirst()), environment: environment, in: home.root)
    }

    private func lines(_ file: URL) throws -> [String] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    private func mode(_ file: URL) throws -> Int {
        ((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions]) as? NSNumber)?.intValue ?? -1
    }
}
