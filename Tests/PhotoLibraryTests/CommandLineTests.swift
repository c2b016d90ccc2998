import Foundation
import LocalTestSupport
import Testing

/// `share --activity photos` as a person runs it: real files, the built binary, exit codes.
@Suite("Save to Photos from the command line")
struct PhotosCommandLineTests {
    @Test("files land in Pictures and Videos; the saved paths are printed; a clash gets a new name")
    func saves() async throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let png = try home.file("a b;c.png", Fixtures.png)
        let jpeg = try home.file("scan", Fixtures.jpeg)
        let mp4 = try home.file("clip.mp4", Fixtures.mp4(size: 100_000))
        let run = try await Share.run(["--activity", "photos", png.path, jpeg.path, mp4.path], home: home)
        #expect(run.status == 0, "\(run.standardError)")
        let expected = [
            home.pictures.appendingPathComponent("a b;c.png"), home.pictures.appendingPathComponent("scan.jpg"),
            home.videos.appendingPathComponent("clip.mp4"),
        ]
        #expect(run.standardOutput == expected.map { $0.path + "\n" }.joined())
        #expect(try sameContent(png, expected[0]) && sameContent(jpeg, expected[1]) && sameContent(mp4, expected[2]))
        let again = try await Share.run(["--activity", "photos", png.path], home: home)
        #expect(again.standardOutput == home.pictures.appendingPathComponent("a b;c 2.png").path + "\n")
    }

    @Test("the [photos] subfolder of the configuration file is used")
    func subfolder() async throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        try FileManager.default.createDirectory(at: home.configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("[photos]\nsubfolder=Shared\n".utf8).write(to: home.configFile)
        let run = try await Share.run(["--activity", "photos", try home.file("p.png", Fixtures.png).path], home: home)
        #expect(run.standardOutput == home.pictures.appendingPathComponent("Shared/p.png").path + "\n")
    }

    @Test("a text file named like a photo is refused with exit 65 and nothing is saved, not even the good items")
    func refused() async throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let good = try home.file("good.png", Fixtures.png)
        let text = try home.file("notes.png", Data("not a picture\n".utf8))
        let run = try await Share.run(["--activity", "photos", good.path, text.path], home: home)
        #expect(run.status == 65)
        #expect(run.standardError.hasPrefix("share: \(text.path): not an image or video (it is "))
        #expect(run.standardError.split(separator: "\n").count == 1)
        #expect(home.entries(home.pictures).isEmpty && home.entries(home.videos).isEmpty)
        let plain = try await Share.run(["--activity", "photos", try home.file("notes.txt", Data("words\n".utf8)).path], home: home)
        #expect(plain.status == 69, "the sheet does not offer Photos for a .txt file at all")
        let missing = try await Share.run(["--activity", "photos", home.root.appendingPathComponent("gone.png").path], home: home)
        #expect(missing.status == 66)
    }

    @Test("a copy killed with SIGKILL leaves no file in the library, hidden or not")
    func killedMidCopy() async throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        // A large file, mostly a hole, with real data to copy so the copy takes a moment.
        var killedWhileCopying = false
        for dataSize in [256 << 20, 1 << 30] where !killedWhileCopying {
            let source = home.root.appendingPathComponent("big-\(dataSize).mp4")
            _ = FileManager.default.createFile(atPath: source.path, contents: Fixtures.mp4(size: 4 << 20))
            let handle = try FileHandle(forWritingTo: source)
            let block = Fixtures.mp4(size: 8 << 20)
            for _ in 0..<(dataSize / block.count) { try handle.write(contentsOf: block) }
            try handle.truncate(atOffset: 3 << 30)
            try handle.close()

            let started = try Share.start(["--activity", "photos", source.path], home: home)
            let pid = started.pid
            // Wait until the destination (an unnamed file in Videos, shown by /proc as
            // "…/Videos/#inode (deleted)") has some bytes, then kill.
            let deadline = Date().addingTimeInterval(60)
            var exited = false
            while Date() < deadline {
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid {
                    exited = true
                    break
                }
                let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
                let writing = descriptors.contains { descriptor in
                    let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)")) ?? ""
                    guard link.hasPrefix(home.videos.path + "/") else { return false }
                    var info = stat()
                    return stat("/proc/\(pid)/fd/\(descriptor)", &info) == 0 && info.st_blocks > 0
                }
                if writing {
                    kill(pid, SIGKILL)
                    killedWhileCopying = true
                    break
                }
                usleep(500)
            }
            if !exited {
                if !killedWhileCopying { kill(pid, SIGKILL) }
                let run = try await Share.finish(started)
                if killedWhileCopying { #expect(run.signal == SIGKILL) }
            } else {
                try? FileManager.default.removeItem(at: started.output)
                try? FileManager.default.removeItem(at: started.error)
            }
            if !killedWhileCopying {
                // It finished before it could be caught: remove the result and try a bigger file.
                try? FileManager.default.removeItem(at: home.videos)
            }
            try FileManager.default.removeItem(at: source)
        }
        #expect(killedWhileCopying, "the copy always finished before it could be killed")
        #expect(home.entries(home.videos).isEmpty, "found \(home.entries(home.videos)) after the kill")
        #expect(home.entries(home.pictures).isEmpty)
        // The next save works and finds nothing to clean up.
        let next = try await Share.run(["--activity", "photos", try home.file("after.mp4", Fixtures.mp4(size: 4096)).path], home: home)
        #expect(next.status == 0)
        #expect(home.entries(home.videos) == ["after.mp4"])
    }
}
