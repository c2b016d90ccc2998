import Foundation
import LocalTestSupport
import Testing

@testable import Contacts

/// vdirsyncer (the Debian package) syncing the folder `share` wrote to another folder.
@Suite("vdirsyncer carries the photo to another folder", .serialized)
struct VdirsyncerTests {
    @Test("a folder-to-folder sync copies the card share changed, byte for byte, both ways")
    func syncCarriesPhoto() async throws {
        let program = try #require(Command.find("vdirsyncer"), "vdirsyncer is not installed (scripts/bootstrap installs it)")
        let folder = try TemporaryFolder("contacts-tests")
        defer { folder.remove() }
        let share = ShareRun(folder: folder.url)
        let left = folder.file("left")
        let right = folder.file("right")
        for path in [left, right, folder.file("status"), folder.file("sync-home")] {
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        }
        try Data(Cards.richV3.utf8).write(to: left.appendingPathComponent("rich-3.vcf"))
        try share.configure("[contacts]\nfolder=\(left.path)\n")
        try TestImages.make(width: 2000, height: 1000).write(to: folder.file("wide.png"))
        try TestImages.make(width: 400, height: 500, format: "jpeg").write(to: folder.file("tall.jpg"))

        let configuration = folder.file("vdirsyncer.conf")
        try Data(
            """
            [general]
            status_path = "\(folder.file("status").path)/"

            [pair contacts]
            a = "contacts_left"
            b = "contacts_right"
            collections = null

            [storage contacts_left]
            type = "filesystem"
            path = "\(left.path)"
            fileext = ".vcf"

            [storage contacts_right]
            type = "filesystem"
            path = "\(right.path)"
            fileext = ".vcf"

            """.utf8
        ).write(to: configuration)
        var environment = share.environment
        environment["HOME"] = folder.file("sync-home").path
        func vdirsyncer(_ arguments: String...) async throws -> Command.Result {
            try await Command.run(program, ["-c", configuration.path] + arguments, environment: environment)
        }

        let set = try await share("--activity", "contact", "--set", "contact=Zoë Ångström", "wide.png")
        #expect(set.status == 0, "\(set)")
        let discover = try await vdirsyncer("discover")
        #expect(discover.status == 0, "\(discover)")
        let sync = try await vdirsyncer("sync")
        #expect(sync.status == 0, "\(sync)")
        let leftCard = left.appendingPathComponent("rich-3.vcf")
        let rightCard = right.appendingPathComponent("rich-3.vcf")
        #expect(try Data(contentsOf: rightCard) == Data(contentsOf: leftCard))
        let carried = try ContactBook(folder: right).read(rightCard).contact
        #expect(carried.photo?.data.flatMap(TestImages.jpegSize).map { [$0.width, $0.height] } == [720, 360])

        // A second photo replaces the first (a new file by rename): vdirsyncer sees the change.
        let again = try await share("--activity", "contact", "--to", "zoe@example.org", "tall.jpg")
        #expect(again.status == 0, "\(again)")
        let resync = try await vdirsyncer("sync")
        #expect(resync.status == 0, "\(resync)")
        #expect(resync.standardError.contains("rich-3") || resync.standardOutput.contains("rich-3"), "\(resync)")
        #expect(try Data(contentsOf: rightCard) == Data(contentsOf: leftCard))
        let updated = try ContactBook(folder: right).read(rightCard).contact
        #expect(updated.photo?.data.flatMap(TestImages.jpegSize).map { [$0.width, $0.height] } == [400, 500])
        // Only PHOTO differs from what the other program wrote.
        let synced = [UInt8](try Data(contentsOf: rightCard))
        #expect(synced.logicalLines.filter { !$0.isPhotoLine } == Array(Cards.richV3.utf8).logicalLines.filter { !$0.isPhotoLine })

        // A card share makes on the other side (named after its UID) comes back the other way.
        try share.configure("[contacts]\nfolder=\(right.path)\nversion=4.0\n")
        let made = try await share("--activity", "contact", "--to", "Dee Dee <dee@example.net>", "tall.jpg")
        #expect(made.status == 0, "\(made)")
        let madeCard = URL(fileURLWithPath: made.standardOutput.trimmingCharacters(in: .newlines))
        let back = try await vdirsyncer("sync")
        #expect(back.status == 0, "\(back)")
        let arrived = left.appendingPathComponent(madeCard.lastPathComponent)
        #expect(try Data(contentsOf: arrived) == Data(contentsOf: madeCard))
        let dee = try ContactBook(folder: left).read(arrived).contact
        #expect(dee.version == .v4)
        #expect(dee.formattedName == "Dee Dee")
        #expect(dee.emailAddresses == ["dee@example.net"])
        #expect(dee.uid == madeCard.deletingPathExtension().lastPathComponent)
    }
}
