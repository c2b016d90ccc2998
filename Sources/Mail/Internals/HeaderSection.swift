import CGMime
import Foundation

/// The header section of a stored message, read without reading the body: enough to list a
/// queued message, find its envelope, and send it without its Bcc lines.
///
/// Lines may end in LF (as this module writes, and as Maildir keeps them) or in CRLF (as RFC 5322
/// has them on the wire, and as other tools drop them into the outbox): both are read, and what
/// is handed on ends lines in LF, which the SMTP transfer turns into CRLF.
struct HeaderSection {
    /// Bytes from the start of the file through the blank line that ends the headers.
    var length: Int
    /// The header section's lines, each ending in LF, without the blank line: what `outbox show`
    /// prints.
    var text: Data
    /// The header section without `Bcc:` fields, ending in its blank line, as it is sent.
    var withoutBcc: Data
    /// Unfolded fields in order: (name, raw value).
    var fields: [(name: String, value: String)]

    /// The largest header section read; more than this is not a message this module wrote.
    static let limit = 1 << 20

    /// Reads the header section of the open file `descriptor`.
    static func read(_ descriptor: Int32) -> HeaderSection? {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var offset: off_t = 0
        var end: Int?
        while end == nil, data.count < limit {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            // A blank line may straddle two reads: look again from two bytes before the new ones.
            let searchStart = max(0, data.count - 2)
            data.append(contentsOf: buffer[0..<count])
            offset += off_t(count)
            end = blankLineEnd(in: data, from: searchStart)
        }
        guard let end else { return nil }
        let section = data.prefix(end)
        // Split into physical lines (a CR before the LF is not part of the line), then group
        // continuation lines with their field.
        var rawFields: [[Data.SubSequence]] = []
        for line in section.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast(2) {
            let line = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
            if let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t"), !rawFields.isEmpty {
                rawFields[rawFields.count - 1].append(line)
            } else {
                rawFields.append([line])
            }
        }
        var text = Data()
        var kept = Data()
        var fields: [(String, String)] = []
        for lines in rawFields {
            let joined = lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
            let colon = joined.firstIndex(of: ":")
            if let colon {
                let name = String(joined[..<colon])
                let value = joined[joined.index(after: colon)...].replacingOccurrences(of: "\n", with: "")
                    .trimmingCharacters(in: .whitespaces)
                fields.append((name, value))
            }
            let isBcc = colon.map { joined[..<$0].lowercased() == "bcc" } ?? false
            for line in lines {
                text.append(contentsOf: line)
                text.append(UInt8(ascii: "\n"))
                if colon != nil, !isBcc {
                    kept.append(contentsOf: line)
                    kept.append(UInt8(ascii: "\n"))
                }
            }
        }
        kept.append(UInt8(ascii: "\n"))
        return HeaderSection(length: end, text: text, withoutBcc: kept, fields: fields.map { (name: $0.0, value: $0.1) })
    }

    /// The offset just past the first blank line in `data` at or after `start`: an LF followed
    /// by LF, or by CRLF; nil when there is none yet.
    static func blankLineEnd(in data: Data, from start: Int) -> Int? {
        let lineFeed = UInt8(ascii: "\n")
        let carriageReturn = UInt8(ascii: "\r")
        var index = data.startIndex + start
        while let found = data[index...].firstIndex(of: lineFeed) {
            let next = data.index(after: found)
            guard next < data.endIndex else { return nil }
            if data[next] == lineFeed { return next + 1 - data.startIndex }
            if data[next] == carriageReturn {
                let after = data.index(after: next)
                guard after < data.endIndex else { return nil }
                if data[after] == lineFeed { return after + 1 - data.startIndex }
            }
            index = next
        }
        return nil
    }

    /// The unfolded value of the first field called `name`.
    func value(_ name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Every value of the fields called `name`.
    func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    /// The `local@domain` addresses in the fields called `name`, groups flattened.
    func addresses(_ name: String) -> [String] {
        values(name).flatMap(HeaderDecoding.addresses(in:))
    }

    /// The decoded subject.
    var subject: String { value("Subject").map(HeaderDecoding.decodedText) ?? "" }
}

/// GMime's header decoders, for values read back from stored messages.
enum HeaderDecoding {
    private static let initialized: Bool = {
        g_mime_init()
        return true
    }()

    /// The RFC 2047 encoded words of `value`, decoded.
    ///
    /// Each word is decoded on its own, as RFC 2047 §6.2 asks (the space between two encoded
    /// words is dropped, other spaces kept): GMime 3.2 joins adjacent base64 words of one charset
    /// before decoding them, so a word that ends in padding cuts off every word after it, and
    /// its own encoder writes such words for long subjects (found by `fuzz-mime-headers`).
    static func decodedText(_ value: String) -> String {
        var result = ""
        var space = ""
        var afterEncodedWord = false
        var rest = Substring(value)
        while !rest.isEmpty {
            let blank = rest.prefix { $0 == " " || $0 == "\t" }
            if !blank.isEmpty {
                space = String(blank)
                rest = rest.dropFirst(blank.count)
                continue
            }
            let word = rest.prefix { $0 != " " && $0 != "\t" }
            rest = rest.dropFirst(word.count)
            let isEncoded = word.hasPrefix("=?") && word.hasSuffix("?=") && word.count > 4
            if !(isEncoded && afterEncodedWord) { result += space }
            result += decodedWord(String(word))
            space = ""
            afterEncodedWord = isEncoded
        }
        return result + space
    }

    /// One word of a header value, decoded by GMime.
    private static func decodedWord(_ word: String) -> String {
        precondition(initialized)
        guard let decoded = g_mime_utils_header_decode_text(nil, word) else { return word }
        defer { g_free(decoded) }
        return String(cString: decoded)
    }

    /// The addresses of an address-list header value, groups flattened.
    static func addresses(in value: String) -> [String] {
        precondition(initialized)
        guard let list = internet_address_list_parse(nil, value) else { return [] }
        defer { g_object_unref(list) }
        return addresses(of: list)
    }

    /// The addresses of an address list, displayed as `Name <addr>` when `display` is true.
    private static func addresses(of list: UnsafeMutablePointer<InternetAddressList>) -> [String] {
        var result: [String] = []
        for index in 0..<internet_address_list_length(list) {
            guard let address = internet_address_list_get_address(list, index) else { continue }
            let instance = UnsafeMutablePointer<GTypeInstance>(OpaquePointer(address))
            if g_type_check_instance_is_a(instance, internet_address_mailbox_get_type()) != 0 {
                let mailbox = UnsafeMutablePointer<InternetAddressMailbox>(OpaquePointer(address))
                // The ASCII form, as written and as SMTP needs it: GMime's `addr` decodes an IDN
                // domain (xn--bcher-kva.example becomes bücher.example).
                if let addr = internet_address_mailbox_get_idn_addr(mailbox) { result.append(String(cString: addr)) }
            } else if g_type_check_instance_is_a(instance, internet_address_group_get_type()) != 0 {
                let group = UnsafeMutablePointer<InternetAddressGroup>(OpaquePointer(address))
                if let members = internet_address_group_get_members(group) { result += addresses(of: members) }
            }
        }
        return result
    }
}
