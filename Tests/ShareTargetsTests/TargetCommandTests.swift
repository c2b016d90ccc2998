// `share` with share targets, as a person meets them: an Exec= target given a file whose name
// is hostile, turning a target off and on, checking an entry, a localized name.
import Foundation
import LocalTestSupport
import Testing

@Suite("share targets, from the command line")
struct TargetCommandTests {
    /// A test home with its own application folders (shared-mime-info still from /usr/share).
    private func withHome(_ body: (TemporaryHome, URL, [String: String]) async throws -> Void) async throws {
        let home = try TemporaryHome(prefix: "target-command")
        defer { home.remove() }
        let applications = home.home.appendingPathComponent("data/applications")
        let system = home.root.appendingPathComponent("system")
        for folder in [applications, system] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try await body(home, applications, ["XDG_DATA_DIRS": system.path + ":/usr/share"])
    }

    private func entry(_ text: String, named name: String, in folder: URL) throws {
        try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    @Test("an Exec= target receives the file's path intact, however hostile its name, and the outcome is handed-off")
    func execTargetGetsThePathIntact() async throws {
        try await withHome { home, applications, extra in
            // The program writes each argument it got, NUL-terminated, then renames the list into place.
            // /bin/sh runs it, rather than the kernel executing the file: a process another test
            // starts at the moment the file is written can inherit its descriptor (Foundation
            // does not open it close-on-exec), and executing a file open for writing fails
            // (ETXTBSY) inside gio-launch-desktop, where nobody sees it.
            let record = home.root.appendingPathComponent("arguments")
            let program = home.root.appendingPathComponent("record-arguments")
            let started = home.root.appendingPathComponent("started")
            try "#!/bin/sh\necho \"$$\" > \"\(started.path)\"\nprintf '%s\\0' \"$@\" > \"\(record.path).part\" && mv \"\(record.path).part\" \"\(record.path)\"\n"
                .write(to: program, atomically: true, encoding: .utf8)
            chmod(program.path, 0o755)
            try entry(
                "[Desktop Entry]\nType=Application\nName=Recorder\nExec=/bin/sh \(program.path) %F\nX-ShareSheet-Accepts=public.image\n",
                named: "org.example.Recorder.desktop", in: applications)
            let names = ["a b;c $(touch x) `id` 'q' \"d\" #1 *.png", "-rf ünïcode\\n.png"]
            var paths: [String] = []
            for name in names {
                paths.append(try home.file(name, try Data(contentsOf: Sample.url("sunset.png"))).path)
            }
            let run = try await Share.run(["--json", "--activity", "org.example.Recorder"] + paths, home: home, extra: extra)
            #expect(run.status == 0, "\(run.standardError)")
            let result = try #require(try JSONSerialization.jsonObject(with: run.output) as? [String: Any])
            #expect(result["disposition"] as? String == "handed-off")
            #expect(result["completed"] as? Bool == true)
            let deadline = Date().addingTimeInterval(10)
            while !FileManager.default.fileExists(atPath: record.path), Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
            try #require(
                FileManager.default.fileExists(atPath: record.path),
                "no arguments within 10 s; the program \(FileManager.default.fileExists(atPath: started.path) ? "started" : "never started"); share said: \(run.standardError)")
            let received = try Data(contentsOf: record).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            #expect(received == paths)
            #expect(!FileManager.default.fileExists(atPath: home.root.appendingPathComponent("x").path), "nothing ran a shell over the name")
        }
    }

    @Test("disable and enable: the configuration key, the sheet's reason, and a misspelled name")
    func disableAndEnable() async throws {
        try await withHome { home, applications, extra in
            try entry(
                "[Desktop Entry]\nType=Application\nName=Saver\nExec=/bin/true %F\nX-ShareSheet-Accepts=public.image\n",
                named: "org.example.Saver.desktop", in: applications)
            try FileManager.default.createDirectory(at: home.configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "# mine\n[mail]\nfrom=ana@example.com\n".write(to: home.configFile, atomically: true, encoding: .utf8)
            let photo = try home.file("p.png", try Data(contentsOf: Sample.url("sunset.png")))

            let off = try await Share.run(["targets", "disable", "org.example.Saver"], home: home, extra: extra)
            #expect(off.status == 0 && off.standardOutput.hasPrefix("org.example.Saver: turned off"), "\(off.standardError)")
            let config = try String(contentsOf: home.configFile, encoding: .utf8)
            #expect(config.contains("# mine") && config.contains("from=ana@example.com") && config.contains("disabled=org.example.Saver"))
            let listed = try await Share.run(["--list", "--json", photo.path], home: home, extra: extra)
            let unavailable = (try JSONSerialization.jsonObject(with: listed.output) as? [String: Any])?["unavailable"] as? [[String: Any]]
            let reason = unavailable?.first { $0["name"] as? String == "org.example.Saver" }?["reason"] as? String
            #expect(reason == "turned off (share targets enable org.example.Saver)")
            let again = try await Share.run(["targets", "disable", "org.example.Saver"], home: home, extra: extra)
            #expect(again.standardOutput == "org.example.Saver: already off\n")

            let on = try await Share.run(["targets", "enable", "org.example.Saver.desktop"], home: home, extra: extra)
            #expect(on.status == 0 && on.standardOutput.hasPrefix("org.example.Saver: turned on"))
            #expect(!(try String(contentsOf: home.configFile, encoding: .utf8)).contains("targets"))
            let offered = try await Share.run(["--list", "--json", photo.path], home: home, extra: extra)
            #expect(offered.standardOutput.contains("\"org.example.Saver\""))

            let typo = try await Share.run(["targets", "disable", "org.example.Savr"], home: home, extra: extra)
            #expect(typo.status == 64)
            #expect(typo.standardError == "share: targets: no target named 'org.example.Savr' is installed (did you mean 'org.example.Saver'?)\n")
        }
    }

    @Test("targets check: a good entry says what it is offered for; a broken one names each problem and exits 65")
    func check() async throws {
        try await withHome { home, applications, extra in
            let good = home.root.appendingPathComponent("org.example.Good.desktop")
            try "[Desktop Entry]\nType=Application\nName=Good\nExec=/bin/true %U\nX-ShareSheet-Accepts=public.image[1-4];application/pdf\nX-ShareSheet-Category=action\n"
                .write(to: good, atomically: true, encoding: .utf8)
            let passed = try await Share.run(["targets", "check", good.path], home: home, extra: extra)
            #expect(passed.status == 0, "\(passed.standardOutput)\(passed.standardError)")
            #expect(passed.standardOutput.contains("offered for:\n  public.image: images, 1 to 4 at a time\n"), "\(passed.standardOutput)")
            #expect(passed.standardOutput.contains("  application/pdf: PDF documents [com.adobe.pdf], any number at a time\n"))
            #expect(passed.standardOutput.contains("note: appears as org.example.Good (org.sharesheet.target.org.example.Good), \"Good\" in the action row\n"))
            #expect(passed.standardOutput.hasSuffix("\(good.path): a valid share target\n"))

            let broken = applications.appendingPathComponent("org.example.Broken.desktop")
            try "[Desktop Entry]\nType=Application\nName=Broken\nExec=/bin/true --files=%F\nX-ShareSheet-Accepts=public.image[0];text/plain\nX-ShareSheet-Category=top\nX-ShareSheet-DBus=org.example.Broken\n"
                .write(to: broken, atomically: true, encoding: .utf8)
            let failed = try await Share.run(["targets", "check", broken.path], home: home, extra: extra)
            #expect(failed.status == 65)
            #expect(failed.standardError == "share: \(broken.path): 3 problems\n")
            let problems = failed.standardOutput.split(separator: "\n").filter { $0.hasPrefix("problem: ") }
            #expect(problems.count == 3, "\(failed.standardOutput)")
            #expect(problems.contains { $0.contains("public.image[0]: a count limit of 0 takes nothing") })
            #expect(problems.contains { $0.contains("X-ShareSheet-Category=top: the row is share or action") })
            #expect(problems.contains { $0.contains("no D-Bus service file names org.example.Broken") })

            let exec = home.root.appendingPathComponent("org.example.Exec.desktop")
            try "[Desktop Entry]\nType=Application\nName=Exec\nExec=/bin/true --files=%F\nX-ShareSheet-Accepts=public.image\n"
                .write(to: exec, atomically: true, encoding: .utf8)
            let embedded = try await Share.run(["targets", "check", exec.path], home: home, extra: extra)
            #expect(embedded.status == 65)
            #expect(embedded.standardOutput.contains("problem: Exec= argument '--files=%F': %F and %U must be an argument of their own\n"))

            let missing = try await Share.run(["targets", "check", "nowhere.desktop"], home: home, extra: extra)
            #expect(missing.status == 66)
        }
    }

    @Test("the shipped entries for real applications and the example pass targets check")
    func shippedEntries() async throws {
        try await withHome { home, _, extra in
            let folders = ["Resources/targets", "Examples/targets"].map { BusTargetTests.repository.appendingPathComponent($0) }
            var checked = 0
            for folder in folders {
                for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".desktop") {
                    let run = try await Share.run(["targets", "check", folder.appendingPathComponent(name).path], home: home, extra: extra)
                    // The example's D-Bus service file is installed only with it.
                    let problems = run.standardOutput.split(separator: "\n").filter { $0.hasPrefix("problem: ") && !$0.contains("no D-Bus service file") }
                    #expect(problems.isEmpty, "\(name): \(run.standardOutput)")
                    checked += 1
                }
            }
            #expect(checked == 4)
        }
    }

    @Test("targets list: the title in the person's language, the row, the reach; --json parses")
    func listLocalized() async throws {
        try await withHome { home, applications, extra in
            try entry(
                "[Desktop Entry]\nType=Application\nName=Archive\nName[de]=Archiv\nIcon=folder\nX-ShareSheet-DBus=org.example.Archive\nX-ShareSheet-Accepts=public.item\n",
                named: "org.example.Archive.desktop", in: applications)
            let german = try await Share.run(["targets", "list"], home: home, extra: extra.merging(["LANGUAGE": "de", "LANG": "de_DE.UTF-8"]) { $1 })
            #expect(german.standardOutput.hasPrefix("org.example.Archive  Archiv  [share]  on\n"), "\(german.standardOutput)")
            let json = try await Share.run(["targets", "list", "--json"], home: home, extra: extra)
            let listed = try #require(try JSONSerialization.jsonObject(with: json.output) as? [[String: Any]])
            #expect(listed.first?["title"] as? String == "Archive")
            #expect(listed.first?["reach"] as? String == "dbus:org.example.Archive")
            #expect(listed.first?["activityType"] as? String == "org.sharesheet.target.org.example.Archive")
            #expect(listed.first?["enabled"] as? Bool == true)
        }
    }
}
