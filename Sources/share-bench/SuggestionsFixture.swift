import Foundation
import ShareHistory

/// The home the suggestions benchmark shares from: 10,000 history entries over 90 days to a few
/// hundred targets, and a contacts folder of 2,000 vCards, a fifth of them with a photo. Made
/// from a fixed seed, so every run measures the same history.
struct SuggestionsFixture {
    static let historyEntries = 10_000
    static let contactCount = 2_000
    /// One contact in this many has a photo.
    static let photoEvery = 5
    static let days = 90.0

    /// The distinct targets, by kind: a few hundred, as a person reaches in three months.
    static let recipients = 240
    static let numbers = 40
    static let devices = 12
    static let applications = 20
    static let printers = 6

    /// A small linear congruential generator: the same numbers on every machine and run.
    private struct Seeded {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        /// An index below `count`, the first ones far likelier (a few people get most shares).
        mutating func skewed(_ count: Int) -> Int { min(count - 1, Int(pow(next(), 2.2) * Double(count))) }
        mutating func below(_ count: Int) -> Int { min(count - 1, Int(next() * Double(count))) }
    }

    /// Contact `number`'s address: the history's recipients are the first 240 contacts, so a
    /// recipient usually has a name and often a photo in the folder.
    static func address(_ number: Int) -> String { "person\(number)@example.org" }
    static func phone(_ number: Int) -> String { "+49 30 555 \(String(format: "%04d", number))" }

    /// 10,000 entries: Mail (one to three recipients), Message, AirDrop, Open In, Print, Copy and
    /// Save to Photos; images, text, files, links, movies and some image-and-file shares.
    static func entries(now: Date) -> [HistoryEntry] {
        var random = Seeded(state: 2026)
        let kinds: [[String]] = [["image"], ["image"], ["image"], ["text"], ["text"], ["file"], ["file"], ["link"], ["movie"], ["image", "file"]]
        return (0..<historyEntries).map { _ in
            let time = now.addingTimeInterval(-random.next() * days * 86_400)
            let roll = random.next()
            let (type, activity, targets): (String, String, [HistoryTarget])
            switch roll {
            case ..<0.45:
                let count = 1 + random.below(3)
                (type, activity) = ("com.apple.UIKit.activity.Mail", "mail")
                targets = Set((0..<count).map { _ in random.skewed(recipients) }).sorted()
                    .map { HistoryTarget(kind: .recipient, value: address($0)) }
            case ..<0.60:
                (type, activity) = ("com.apple.UIKit.activity.Message", "message")
                targets = [HistoryTarget(kind: .recipient, value: phone(random.skewed(numbers)))]
            case ..<0.75:
                let device = random.skewed(devices)
                (type, activity) = ("com.apple.UIKit.activity.AirDrop", "airdrop")
                let fingerprint = String(repeating: String(format: "%02x", device), count: 32)
                targets = [HistoryTarget(kind: .device, value: fingerprint, name: "Phone \(device)")]
            case ..<0.85:
                (type, activity) = ("org.sharesheet.activity.openIn", "open-in")
                targets = [HistoryTarget(kind: .application, value: "org.example.App\(random.skewed(applications)).desktop")]
            case ..<0.90:
                (type, activity) = ("com.apple.UIKit.activity.Print", "print")
                targets = [HistoryTarget(kind: .printer, value: "Printer-\(random.skewed(printers))")]
            case ..<0.95:
                (type, activity, targets) = ("com.apple.UIKit.activity.CopyToPasteboard", "copy", [])
            default:
                (type, activity, targets) = ("com.apple.UIKit.activity.SaveToCameraRoll", "save-to-photos", [])
            }
            let items = kinds[random.below(kinds.count)].map { HistoryEntry.ItemCount(kind: $0, count: 1 + random.below(3)) }
            return HistoryEntry(
                time: time, activityType: type, activity: activity, targets: targets, items: items,
                disposition: random.next() < 0.03 ? "failed" : "sent")
        }
    }

    /// A photo as a card embeds it: a JPEG's size (about 6 KB), with a JPEG's first bytes.
    private static func photo(_ number: Int) -> String {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00]
        var random = Seeded(state: UInt64(number) + 7)
        for _ in 0..<6_000 { bytes.append(UInt8(random.below(256))) }
        bytes += [0xFF, 0xD9]
        // vCard 3.0 folds lines at 75 octets.
        let base64 = Data(bytes).base64EncodedString()
        var folded = ""
        var index = base64.startIndex
        while index < base64.endIndex {
            let end = base64.index(index, offsetBy: 74, limitedBy: base64.endIndex) ?? base64.endIndex
            folded += (folded.isEmpty ? "" : "\r\n ") + base64[index..<end]
            index = end
        }
        return folded
    }

    /// 2,000 cards as khard writes them, one file each named after the UID.
    static func writeContacts(into folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for number in 0..<contactCount {
            let uid = String(format: "bench-%05d", number)
            var card = """
                BEGIN:VCARD\r
                VERSION:3.0\r
                UID:\(uid)\r
                FN:Person \(number) Example\r
                N:Example;Person \(number);;;\r
                EMAIL;TYPE=INTERNET:\(address(number))\r

                """
            if number < numbers || number.isMultiple(of: 3) { card += "TEL;TYPE=CELL:\(phone(number))\r\n" }
            if number.isMultiple(of: photoEvery) { card += "PHOTO;ENCODING=b;TYPE=JPEG:\(photo(number))\r\n" }
            card += "END:VCARD\r\n"
            try Data(card.utf8).write(to: folder.appendingPathComponent(uid + ".vcf"))
        }
        // Written a day ago, as a person's folder would be: the first sheet's index is trusted.
        var times = [timespec(tv_sec: time(nil) - 86_400, tv_nsec: 0), timespec(tv_sec: time(nil) - 86_400, tv_nsec: 0)]
        utimensat(AT_FDCWD, folder.path, &times, 0)
    }

    /// Records `entries` as the command does, one share at a time.
    static func record(_ entries: [HistoryEntry], into history: ShareHistory, now: Date) throws {
        for entry in entries.sorted(by: { $0.time < $1.time }) {
            try history.record(entry, keepDays: 90, now: now)
        }
    }
}
