import Foundation

/// vCards as other programs write them, byte for byte.
enum Cards {
    /// A vCard 3.0 with what a rewrite must keep: non-ASCII names, unknown X- properties, folded
    /// lines (one continued with a space, one with a tab), a grouped property, a quoted parameter
    /// holding ':' and ';', and an old folded PHOTO to replace.
    static let richV3 = [
        "BEGIN:VCARD",
        "VERSION:3.0",
        "PRODID:-//Other Program//EN",
        "UID:rich-3",
        "FN:Zoë Ångström",
        "N:Ångström;Zoë;;;",
        "EMAIL;TYPE=INTERNET,HOME:zoe@example.org",
        "X-CUSTOM-THING;X-PARAM=\"a:b;c\":keep me exactly as I am, commas\\, and all",
        "NOTE:A long note that some other program folded because it was longer than se",
        " venty-five octets\\, with an escaped comma and a tab-folded",
        "\t continuation.",
        "item1.X-ABLabel:_$!<HomePage>!$_",
        "item1.URL:https://example.org/zoe",
        "PHOTO;ENCODING=b;TYPE=PNG:iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQV",
        " R42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
        "X-EVOLUTION-FILE-AS:Ångström\\, Zoë",
        "CATEGORIES:friends,climbing",
        "END:VCARD",
        "",
    ].joined(separator: "\r\n")

    /// A vCard 4.0 with no photo yet, LF line breaks (as some tools write them), and a folded
    /// unknown property.
    static let plainV4 = [
        "BEGIN:VCARD",
        "VERSION:4.0",
        "UID:plain-4",
        "FN:Bo Chen",
        "N:Chen;Bo;;;",
        "EMAIL;TYPE=work:bo@example.com",
        "X-SOCIALPROFILE;TYPE=mastodon:https://social.example/@bo_chen_with_a_long_n",
        " ame",
        "END:VCARD",
        "",
    ].joined(separator: "\n")

    /// A vCard 3.0 with nothing unusual.
    static func simple(uid: String, name: String, email: String?, version: String = "3.0") -> String {
        let parts = name.split(separator: " ")
        var lines = ["BEGIN:VCARD", "VERSION:\(version)", "UID:\(uid)", "FN:\(name)", "N:\(parts.last ?? "");\(parts.dropLast().joined(separator: " "));;;"]
        if let email { lines.append("EMAIL:\(email)") }
        lines += ["END:VCARD", ""]
        return lines.joined(separator: "\r\n")
    }

    /// Cards that cannot be read, with the reason the warning names.
    static let malformed: [(name: String, text: String, reason: String)] = [
        ("no-end.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Cut Short\r\n", "END:VCARD"),
        ("no-version.vcf", "BEGIN:VCARD\r\nFN:No Version\r\nEND:VCARD\r\n", "no VERSION"),
        ("old.vcf", "BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Old Format\r\nEND:VCARD\r\n", "2.1"),
        ("no-colon.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN Broken Line\r\nEND:VCARD\r\n", "':'"),
        ("two.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:One\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:Two\r\nEND:VCARD\r\n", "more than one card"),
        ("html.vcf", "<html><body>not a card</body></html>\n", "BEGIN:VCARD"),
    ]

    /// Bytes that are not UTF-8 inside an otherwise good card.
    static let latin1: [UInt8] = Array("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Jos".utf8) + [0xE9] + Array("\r\nEND:VCARD\r\n".utf8)
}

extension Array where Element == UInt8 {
    /// The logical lines of a card (a line and its folded continuations), each as its exact bytes.
    var logicalLines: [[UInt8]] {
        var lines: [[UInt8]] = []
        var start = 0
        var index = 0
        while index < count {
            if self[index] == 0x0A {
                let next = index + 1
                let continues = next < count && (self[next] == 0x20 || self[next] == 0x09)
                if !continues {
                    lines.append(Array(self[start..<next]))
                    start = next
                }
            }
            index += 1
        }
        if start < count { lines.append(Array(self[start...])) }
        return lines
    }
}

extension [UInt8] {
    /// True when the line is a PHOTO property (any group, any case).
    var isPhotoLine: Bool {
        let text = String(decoding: prefix(64), as: UTF8.self).uppercased()
        let name = text.split(whereSeparator: { $0 == ";" || $0 == ":" }).first.map(String.init) ?? ""
        return name == "PHOTO" || name.hasSuffix(".PHOTO")
    }
}

/// A contacts export of the size that brings trouble: many small cards in one `.vcf` file, every
/// `photoEvery`th with a large base64 PHOTO, folded at 75 octets with "\r\n", written a piece at
/// a time so that the test itself stays small.
enum LargeExport {
    /// Writes the export to `url`; returns its size in bytes.
    @discardableResult
    static func write(to url: URL, cards: Int, photoEvery: Int, photoBytes: Int) throws -> Int {
        // One photo, folded once and written for every card that has one.
        var generator = SystemRandomNumberGenerator()
        let photo = Data((0..<photoBytes).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let folded = ContentLinesForTests.fold("PHOTO;ENCODING=b;TYPE=JPEG:" + photo.base64EncodedString())
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var size = 0
        var pending = Data()
        for index in 0..<cards {
            var card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:export-\(index)\r\nFN:Person \(index)\r\n"
            card += "N:\(index);Person;;;\r\nEMAIL;TYPE=INTERNET:person\(index)@example.org\r\n"
            pending.append(contentsOf: card.utf8)
            if index % photoEvery == photoEvery - 1 { pending.append(folded) }
            pending.append(contentsOf: "END:VCARD\r\n".utf8)
            if pending.count > 1 << 20 {
                try handle.write(contentsOf: pending)
                size += pending.count
                pending.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: pending)
        return size + pending.count
    }
}

/// Folding for test files, written apart from the module's so that a bug there is not copied.
enum ContentLinesForTests {
    /// `line` (ASCII) in physical lines of at most 75 octets, each continuation starting with a
    /// space, every one ending with "\r\n".
    static func fold(_ line: String) -> Data {
        let bytes = Array(line.utf8)
        var result = Data()
        var start = 0
        var width = 75
        while start < bytes.count {
            let end = min(start + width, bytes.count)
            if start > 0 { result.append(0x20) }
            result.append(contentsOf: bytes[start..<end])
            result.append(contentsOf: [0x0D, 0x0A])
            start = end
            width = 74
        }
        return result
    }
}
