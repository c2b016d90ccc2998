import Foundation
import LocalTestSupport
import Testing

/// The kill matrix (#15): `share` killed with SIGKILL at several moments of six long writes.
/// After each kill the final place holds nothing or the whole thing and the stores pass their
/// checks; after the next run no temporary file of the killed process is left. Every scenario
/// runs the built command in a private home; the moments are found by watching what it writes.
@Suite("kill matrix: SIGKILL mid-write leaves nothing half-written", .serialized)
struct KillMatrixTests {
    // MARK: Save to Photos

    @Test("Save to Photos of a 1 GB video killed at 10, 50 and 90 % of its bytes")
    func saveToPhotos() async throws {
        let home = try TemporaryHome(prefix: "kill-photos")
        defer { home.remove() }
        // An MP4 (ftyp box first, so it is sniffed as a video), then a gigabyte without holes.
        let header: [UInt8] = [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8)
        let size = 1 << 30
        let clip = home.root.appendingPathComponent("clip.mp4")
        try KillPoint.writeLargeFile(clip, header: header, size: size)
        for fraction in [0.1, 0.5, 0.9] {
            let outcome = try await KillPoint.run(["--activity", "photos", clip.path], home: home) { pid, _ in
                (KillPoint.sizeOfFileOpen(by: pid, under: home.videos) ?? 0) >= Int64(Double(size) * fraction)
            }
            #expect(outcome == .killed, "at \(fraction)")
            // Nothing, or the whole video; never a part of it under a name.
            let saved = KillPoint.entries(home.videos).filter { !$0.hasPrefix(".") }
            let whole = saved == ["clip.mp4"] && filesAreIdentical(clip, home.videos.appendingPathComponent("clip.mp4"))
            #expect(saved.isEmpty || whole, "\(saved)")
            try? FileManager.default.removeItem(at: home.videos.appendingPathComponent("clip.mp4"))
        }
        // The next save (a small video) leaves only itself in the folder.
        let small = home.root.appendingPathComponent("small.mp4")
        try KillPoint.writeLargeFile(small, header: header, size: 1 << 20)
        let next = try await Share.run(["--activity", "photos", small.path], home: home)
        #expect(next.status == 0, "\(next.standardError)")
        #expect(KillPoint.entries(home.videos) == ["small.mp4"])
        #expect(filesAreIdentical(small, home.videos.appendingPathComponent("small.mp4")))
    }

    // MARK: Reading list

    @Test("a 10,000-URL reading-list import killed at three moments")
    func readingListImport() async throws {
        let sqlite3 = try #require(Command.find("sqlite3"), "sqlite3 is not installed (scripts/bootstrap installs it)")
        let home = try TemporaryHome(prefix: "kill-reading-list")
        defer { home.remove() }
        let bookmarks = home.root.appendingPathComponent("bookmarks.html")
        var html = "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=UTF-8\">\n"
        html += "<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>\n"
        for index in 0..<10_000 {
            html += "    <DT><A HREF=\"https://example.com/page/\(index)\" ADD_DATE=\"\(1_700_000_000 + index)\">Page \(index)</A>\n"
        }
        html += "</DL><p>\n"
        try html.write(to: bookmarks, atomically: true, encoding: .utf8)
        let arguments = ["reading-list", "import", bookmarks.path]

        // How long a whole import takes here, in a home of its own: the kills fall inside it.
        let reference = try TemporaryHome(prefix: "kill-reading-list-reference")
        defer { reference.remove() }
        let began = Date()
        let whole = try await Share.run(arguments, home: reference)
        let duration = Date().timeIntervalSince(began)
        #expect(whole.status == 0, "\(whole.standardError)")

        let database = home.home.appendingPathComponent("data/sharesheet/reading-list.sqlite")
        let folder = database.deletingLastPathComponent()
        // The bookmarks are read first, then written in one transaction (its pages reach the WAL).
        let wal = folder.appendingPathComponent("reading-list.sqlite-wal")
        // The commit is short: when the poll misses it, the import ends whole, which is checked too.
        let moments: [(String, mustKill: Bool, (pid_t, Double) -> Bool)] = [
            ("reading the bookmarks", true, { _, elapsed in elapsed >= duration * 0.3 }),
            ("the store being opened", true, { _, _ in KillPoint.size(of: wal) != nil }),
            ("the transaction being committed", false, { _, _ in (KillPoint.size(of: wal) ?? 0) >= 256 * 1024 }),
        ]
        for (label, mustKill, moment) in moments {
            let outcome = try await KillPoint.run(arguments, home: home, moment: moment)
            if mustKill {
                #expect(outcome == .killed, "\(label) (a whole import took \(duration) s)")
            } else if outcome != .killed {
                print("kill matrix, reading list: \(label): \(outcome)")
            }
            guard FileManager.default.fileExists(atPath: database.path) else { continue }
            // Killed before the schema was committed, the file holds no table yet: no rows.
            let tables = try await Command.run(sqlite3, [database.path, "SELECT count(*) FROM sqlite_master WHERE name = 'items'"])
            guard tables.standardOutput == "1\n" else {
                #expect(tables.standardOutput == "0\n", "\(label): \(tables)")
                continue
            }
            let check = try await Command.run(sqlite3, [database.path, "PRAGMA integrity_check"])
            #expect(check.standardOutput == "ok\n", "\(check)")
            // Every row whole: its URL, the title and date that came with it.
            let rows = try await Command.run(
                sqlite3,
                [
                    database.path,
                    "SELECT count(*), coalesce(sum(NOT (title = 'Page ' || substr(url, 26) AND date_added IS NOT NULL)), 0) FROM items",
                ])
            let numbers = rows.standardOutput.trimmingCharacters(in: .newlines).split(separator: "|").compactMap { Int($0) }
            #expect(numbers.count == 2 && numbers[0] <= 10_000 && numbers[1] == 0, "\(label): \(rows)")
        }
        let rerun = try await Share.run(arguments, home: home)
        #expect(rerun.status == 0, "\(rerun.standardError)")
        let count = try await Command.run(sqlite3, [database.path, "PRAGMA integrity_check; SELECT count(*) FROM items"])
        #expect(count.standardOutput == "ok\n10000\n", "\(count)")
        // No journal, WAL or shared-memory file left once the last connection closed.
        #expect(KillPoint.entries(folder) == ["reading-list.sqlite"])
    }

    // MARK: Mail outbox

    @Test("a 200 MB mail killed while it is written into the outbox")
    func mailIntoOutbox() async throws {
        let home = try TemporaryHome(prefix: "kill-outbox")
        defer { home.remove() }
        let attachment = home.root.appendingPathComponent("archive.bin")
        let size = 200 * 1024 * 1024
        try KillPoint.writeLargeFile(attachment, header: [], size: size)
        let outbox = home.home.appendingPathComponent("data/sharesheet/Outbox")
        let tmp = outbox.appendingPathComponent("tmp")
        // No mail server is set up, so the message is queued; base64 makes it 4/3 the size.
        let arguments = ["--activity", "mail", "--to", "ana@example.com", "--subject", "Archive", attachment.path]
        let encoded = Double(size) * 4 / 3
        for fraction in [0.1, 0.5, 0.9] {
            let outcome = try await KillPoint.run(arguments, home: home) { _, _ in
                KillPoint.entries(tmp).contains { (KillPoint.size(of: tmp.appendingPathComponent($0)) ?? 0) >= Int64(encoded * fraction) }
            }
            #expect(outcome == .killed, "at \(fraction)")
            // The outbox lists whole messages only: none was finished.
            let list = try await Share.run(["outbox", "list", "--json"], home: home)
            #expect(list.status == 0, "\(list.standardError)")
            #expect(try Self.outboxIDs(list).isEmpty, "\(list.standardOutput)")
            // Listing is the outbox's next start: the killed writer's file is gone.
            #expect(KillPoint.entries(tmp).isEmpty, "\(KillPoint.entries(tmp))")
        }
        let rerun = try await Share.run(arguments, home: home)
        #expect(rerun.status == 75, "\(rerun.standardError)")  // queued: no server is set up
        let list = try await Share.run(["outbox", "list", "--json"], home: home)
        let ids = try Self.outboxIDs(list)
        #expect(ids.count == 1, "\(list.standardOutput)")
        for id in ids {
            // Whole: the attachment's bytes and the closing boundary are there.
            let message = outbox.appendingPathComponent("new/\(id)")
            #expect((KillPoint.size(of: message) ?? 0) > Int64(encoded))
            let handle = try FileHandle(forReadingFrom: message)
            try handle.seek(toOffset: UInt64(max(0, (KillPoint.size(of: message) ?? 0) - 200)))
            let tail = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
            try handle.close()
            #expect(tail.contains("--\r\n") || tail.contains("--\n"), "\(tail)")
        }
        #expect(KillPoint.entries(tmp).isEmpty)
    }

    static func outboxIDs(_ run: Share.Run) throws -> [String] {
        let entries = try JSONSerialization.jsonObject(with: run.output) as? [[String: Any]] ?? []
        return entries.compactMap { $0["id"] as? String }
    }

    // MARK: Print

    @Test("a 2,000-page print to PDF killed while it is laid out and while it is drawn")
    func printToPDF() async throws {
        let pdfinfo = try #require(Command.find("pdfinfo"), "pdfinfo is not installed (scripts/bootstrap installs poppler-utils)")
        let home = try TemporaryHome(prefix: "kill-print")
        defer { home.remove() }
        let temporary = home.root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        // No scheduler listens there, so the job is saved as a PDF into Documents.
        let extra = ["TMPDIR": temporary.path, "CUPS_SERVER": "127.0.0.1:\(try Loopback.freePort())"]
        let documents = home.home.appendingPathComponent("Documents")
        // 59 lines fill an A4 page: 2,000 pages.
        let text = home.root.appendingPathComponent("long.txt")
        var lines = ""
        for number in 1...(59 * 2000) { lines += "Line \(number) of a long text that is printed to a PDF and killed.\n" }
        try lines.write(to: text, atomically: true, encoding: .utf8)

        /// The size of the PDF being drawn in the job's folder, nil before drawing starts.
        func drawn() -> Int64? {
            for name in KillPoint.entries(temporary) where name.hasPrefix("sharesheet-print-") {
                if let size = KillPoint.size(of: temporary.appendingPathComponent("\(name)/document-1.pdf")) { return size }
            }
            return nil
        }
        let moments: [(String, (pid_t, Double) -> Bool)] = [
            // While the pages are laid out, before anything is drawn.
            ("laying out", { _, elapsed in elapsed >= 1 }),
            ("the first pages drawn", { _, _ in (drawn() ?? 0) > 0 }),
            ("about a quarter drawn", { _, _ in (drawn() ?? 0) >= 500_000 }),
        ]
        for (label, moment) in moments {
            let outcome = try await KillPoint.run(["--activity", "print", text.path], home: home, extra: extra, moment: moment)
            #expect(outcome == .killed, "\(label)")
            let saved = KillPoint.entries(documents)
            // Nothing in Documents, or the whole PDF of 2,000 pages.
            if !saved.isEmpty {
                #expect(saved == ["long.pdf"], "\(label): \(saved)")
                let info = try await Command.run(pdfinfo, [documents.appendingPathComponent("long.pdf").path])
                #expect(info.standardOutput.contains(try Regex("Pages: +2000\n")), "\(label): \(info)")
                try? FileManager.default.removeItem(at: documents.appendingPathComponent("long.pdf"))
            }
        }
        // Killed while the finished PDF is copied into Documents: a shorter job (300 pages), so
        // that moment comes soon; its temporary copy is the only file there until it is named.
        let medium = home.root.appendingPathComponent("medium.txt")
        var mediumLines = ""
        for number in 1...(59 * 300) { mediumLines += "Line \(number) of a shorter text.\n" }
        try mediumLines.write(to: medium, atomically: true, encoding: .utf8)
        let copying = try await KillPoint.run(["--activity", "print", medium.path], home: home, extra: extra) { _, _ in
            KillPoint.entries(documents).contains { $0.hasPrefix(".") }
        }
        if copying != .killed { print("kill matrix, print: copying into Documents: \(copying)") }
        let left = KillPoint.entries(documents).filter { !$0.hasPrefix(".") }
        #expect(left.isEmpty || left == ["medium.pdf"], "\(left)")
        try? FileManager.default.removeItem(at: documents.appendingPathComponent("medium.pdf"))

        // The next print (one page) removes the killed jobs' folders and temporary copies and
        // leaves only its PDF.
        let short = home.root.appendingPathComponent("short.txt")
        try "One page.\n".write(to: short, atomically: true, encoding: .utf8)
        let next = try await Share.run(["--activity", "print", short.path], home: home, extra: extra)
        #expect(next.status == 0, "\(next.standardError)")
        #expect(KillPoint.entries(temporary).filter { $0.hasPrefix("sharesheet-print-") }.isEmpty, "\(KillPoint.entries(temporary))")
        #expect(KillPoint.entries(documents) == ["short.pdf"])
    }

    // MARK: Contacts

    @Test("a contact photo assignment killed while the image is read and while the card is written")
    func contactPhoto() async throws {
        let home = try TemporaryHome(prefix: "kill-contacts")
        defer { home.remove() }
        let book = home.home.appendingPathComponent("data/contacts/default")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        let cards = [
            "ana.vcf": "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ana\r\nFN:Ana Lima\r\nN:Lima;Ana;;;\r\nEMAIL:ana@example.com\r\nEND:VCARD\r\n",
            "bo.vcf": "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:bo\r\nFN:Bo Chen\r\nN:Chen;Bo;;;\r\nEMAIL:bo@example.com\r\nEND:VCARD\r\n",
        ]
        for (name, card) in cards { try card.write(to: book.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let image = home.root.appendingPathComponent("portrait.png")
        try Self.writeNoisePNG(image, width: 3000, height: 3000)
        let arguments = ["--activity", "contact", "--to", "ana@example.com", image.path]

        let reference = try TemporaryHome(prefix: "kill-contacts-reference")
        defer { reference.remove() }
        let referenceBook = reference.home.appendingPathComponent("data/contacts/default")
        try FileManager.default.createDirectory(at: referenceBook, withIntermediateDirectories: true)
        try cards["ana.vcf"]!.write(to: referenceBook.appendingPathComponent("ana.vcf"), atomically: true, encoding: .utf8)
        // The shorter of two runs: the first one also fills caches (fonts, image loaders).
        var duration = Double.infinity
        for _ in 0..<2 {
            let began = Date()
            let whole = try await Share.run(arguments, home: reference)
            duration = min(duration, Date().timeIntervalSince(began))
            #expect(whole.status == 0, "\(whole.standardError)")
        }

        let moments: [(String, (pid_t, Double) -> Bool)] = [
            ("reading the image", { _, elapsed in elapsed >= duration * 0.2 }),
            ("encoding the photo", { _, elapsed in elapsed >= duration * 0.5 }),
            // The card's new version exists only as a temporary file while it is written and flushed.
            ("writing the card", { _, _ in KillPoint.entries(book).contains { $0.hasSuffix(".tmp") } }),
        ]
        var killed = 0
        for (label, moment) in moments {
            let outcome = try await KillPoint.run(arguments, home: home, moment: moment)
            if outcome == .killed { killed += 1 } else { print("kill matrix, contacts: \(label): \(outcome)") }
            try await Self.expectCardsParse(book, home: home, label: label)
        }
        // A matrix where no kill landed checked nothing (#24).
        #expect(killed > 0, "no kill landed while the photo was assigned")
        let rerun = try await Share.run(arguments, home: home)
        #expect(rerun.status == 0, "\(rerun.standardError)")
        try await Self.expectCardsParse(book, home: home, label: "after the next run")
        #expect(KillPoint.entries(book) == ["ana.vcf", "bo.vcf"], "no temporary file is left")
    }

    /// Every card of `book` is read by the module's reader (`share contacts list` skips none) and
    /// by khard when it is installed.
    static func expectCardsParse(_ book: URL, home: TemporaryHome, label: String) async throws {
        let list = try await Share.run(["contacts", "list"], home: home)
        #expect(list.status == 0 && !list.standardError.contains("skipped"), "\(label): \(list.standardError)")
        #expect(list.standardOutput.contains("Ana Lima") && list.standardOutput.contains("Bo Chen"), "\(label): \(list.standardOutput)")
        guard let khard = Command.find("khard") else { return }
        let config = home.root.appendingPathComponent("khard.conf")
        try "[addressbooks]\n[[default]]\npath = \(book.path)\n[general]\neditor = /bin/true\nmerge_editor = /bin/true\n"
            .write(to: config, atomically: true, encoding: .utf8)
        let listed = try await Command.run(khard, ["-c", config.path, "list"], environment: home.environment)
        #expect(listed.status == 0 && listed.standardOutput.contains("Ana Lima"), "\(label): \(listed)")
    }

    // MARK: Receive

    @Test("a receive killed while a 300 MB file arrives", .enabled(if: getuid() == 0, "network namespaces need root"))
    func receive() async throws {
        let pair = try NetworkPair()
        defer { pair.remove() }
        let receiver = try TemporaryHome(prefix: "kill-receiver")
        defer { receiver.remove() }
        let sender = try TemporaryHome(prefix: "kill-sender")
        defer { sender.remove() }
        let downloads = receiver.home.appendingPathComponent("Downloads")
        let size = 300 * 1024 * 1024
        let movie = sender.root.appendingPathComponent("movie.mkv")
        try writeRandomFile(movie, size: size, seed: 7)
        let send = ["--activity", "airdrop", "--to", pair.theirAddress, movie.path]
        let parts = { KillPoint.entries(downloads).filter { $0.hasSuffix(".sharesheet-part") } }

        for fraction in [0.1, 0.5, 0.9] {
            let started = try Self.startReceiver(receiver, in: pair)
            let transfer = try Share.start(send, home: sender, namespace: pair.ours)
            let deadline = Date().addingTimeInterval(300)
            var arrived: Int64 = 0
            while Date() < deadline {
                arrived = parts().compactMap { KillPoint.size(of: downloads.appendingPathComponent($0)) }.max() ?? 0
                if arrived >= Int64(Double(size) * fraction) { break }
                var status: Int32 = 0
                if waitpid(started.pid, &status, WNOHANG) == started.pid { break }
                try await Task.sleep(for: .milliseconds(2))
            }
            kill(started.pid, SIGKILL)
            let receiverRun = try await Share.finish(started, timeout: 30)
            #expect(receiverRun.signal == SIGKILL, "at \(fraction): \(receiverRun.standardError)")
            #expect(arrived >= Int64(Double(size) * fraction), "at \(fraction): the upload was not seen arriving")
            // The sender notices the receiver is gone.
            let senderRun = try await Share.finish(transfer, timeout: 120)
            #expect(senderRun.status != 0, "at \(fraction)")
            // No final file, or the whole one.
            let final = KillPoint.entries(downloads).filter { !$0.hasPrefix(".") }
            #expect(final.isEmpty || (final == ["movie.mkv"] && filesAreIdentical(movie, downloads.appendingPathComponent("movie.mkv"))))
            try? FileManager.default.removeItem(at: downloads.appendingPathComponent("movie.mkv"))
        }
        // The next receiver removes the killed ones' part files when it starts, then takes the whole file.
        let next = try Self.startReceiver(receiver, in: pair)
        #expect(parts().isEmpty, "\(parts())")
        let transfer = try await Share.finish(Share.start(send, home: sender, namespace: pair.ours), timeout: 300)
        #expect(transfer.status == 0, "\(transfer.standardError)")
        #expect(KillPoint.entries(downloads) == ["movie.mkv"])
        #expect(filesAreIdentical(movie, downloads.appendingPathComponent("movie.mkv")))
        kill(next.pid, SIGTERM)
        _ = try await Share.finish(next, timeout: 30)
    }

    /// Starts `share receive --accept-all` in the pair's other namespace and waits until it listens.
    static func startReceiver(_ home: TemporaryHome, in pair: NetworkPair) throws -> Share.Started {
        let started = try Share.start(["receive", "--accept-all"], home: home, namespace: pair.theirs)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let said = (try? String(contentsOf: started.output, encoding: .utf8)) ?? ""
            let errors = (try? String(contentsOf: started.error, encoding: .utf8)) ?? ""
            if (said + errors).contains("receiving as") { return started }
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(started.pid, SIGKILL)
        _ = Spawn.waitBlocking(started.pid)
        throw PeerError("share receive did not start listening: \((try? String(contentsOf: started.error, encoding: .utf8)) ?? "")")
    }

    // MARK: Helpers

    /// A PNG of noise made by `Tests/Fixtures/noise-png.py` (quick even for a large one): a
    /// photo big enough that decoding and scaling it take a while.
    static func writeNoisePNG(_ url: URL, width: Int, height: Int) throws {
        let script = Fixture.url("noise-png.py")
        let made = try Command.run("/usr/bin/python3", [script.path, url.path, String(width), String(height)])
        guard made.status == 0 else { throw PeerError("making \(url.lastPathComponent) failed: \(made)") }
    }
}
