// A share target that sends over the network (X-ShareSheet-Network=true) gets photos without
// their location, as Mail and AirDrop do (SPEC §13); any other target gets the person's file.
import Foundation
import LocalTestSupport
import Testing

@Suite("share targets: photos leaving by a network target")
struct NetworkTargetPhotoTests {
    /// Shares `photo` with an Exec= target whose entry has `extraKeys`; the path it was given.
    private func pathGiven(photo: URL, extraKeys: String, home: TemporaryHome) async throws -> String {
        let applications = home.home.appendingPathComponent("data/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        let record = home.root.appendingPathComponent("given-\(UUID().uuidString)")
        let program = home.root.appendingPathComponent("record-path")
        // Copies what it was given at once, as an uploader would read it, and says where it was.
        try "#!/bin/sh\ncp \"$1\" \"\(record.path).jpg\" && printf '%s' \"$1\" > \"\(record.path).part\" && mv \"\(record.path).part\" \"\(record.path)\"\n"
            .write(to: program, atomically: true, encoding: .utf8)
        chmod(program.path, 0o755)
        try "[Desktop Entry]\nType=Application\nName=Uploader\nExec=/bin/sh \(program.path) %f\nX-ShareSheet-Accepts=public.image\n\(extraKeys)"
            .write(to: applications.appendingPathComponent("org.example.Uploader.desktop"), atomically: true, encoding: .utf8)
        let run = try await Share.run(["--activity", "org.example.Uploader", photo.path], home: home)
        #expect(run.status == 0, "\(run.standardError)")
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: record.path), Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let given = try String(contentsOf: record, encoding: .utf8)
        #expect(try PhotoSamples.value("Exif.Image.Orientation", in: URL(fileURLWithPath: record.path + ".jpg")) == "6")
        return given
    }

    @Test("X-ShareSheet-Network=true: the target is given a copy without GPS or serial; the person's file is unchanged")
    func networkTarget() async throws {
        let home = try TemporaryHome(prefix: "network-target")
        defer { home.remove() }
        let photo = home.root.appendingPathComponent("pier.jpg")
        try PhotoSamples.located(photo, orientation: 6)
        let before = try Data(contentsOf: photo)
        let given = try await pathGiven(photo: photo, extraKeys: "X-ShareSheet-Network=true\n", home: home)
        #expect(given != photo.path)
        #expect(URL(fileURLWithPath: given).lastPathComponent == "pier.jpg")
        let copied = try #require(FileManager.default.contentsOfDirectory(atPath: home.root.path).first { $0.hasPrefix("given-") && $0.hasSuffix(".jpg") })
        let received = home.root.appendingPathComponent(copied)
        #expect(try PhotoSamples.value("Exif.GPSInfo.GPSLatitude", in: received) == nil)
        #expect(try PhotoSamples.value("Exif.Photo.BodySerialNumber", in: received) == nil)
        #expect(try Data(contentsOf: photo) == before)
    }

    @Test("a target without the key is given the person's own file, location and all")
    func localTarget() async throws {
        let home = try TemporaryHome(prefix: "network-target")
        defer { home.remove() }
        let photo = home.root.appendingPathComponent("pier.jpg")
        try PhotoSamples.located(photo, orientation: 6)
        let given = try await pathGiven(photo: photo, extraKeys: "", home: home)
        #expect(given == photo.path)
    }
}
