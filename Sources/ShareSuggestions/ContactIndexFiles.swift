import Contacts
import Foundation
import ShareSheet
import ShareSheetSystem

extension ContactIndex {
    /// The index file: plain text a person can read, one contact a line.
    ///
    /// ```
    /// sharesheet contacts index 1
    /// folder<TAB>/home/ana/.local/share/contacts/default
    /// stamp<TAB>SECONDS<TAB>NANOSECONDS<TAB>CARDS
    /// NAME<TAB>ADDRESS<US>ADDRESS<TAB>NUMBER<US>NUMBER<TAB>PHOTO PATH
    /// end<TAB>COUNT
    /// ```
    ///
    /// Tabs, line breaks and unit separators (US, 0x1F) inside a value become spaces. The last
    /// line tells a whole file from a cut one.
    enum IndexFile {
        static let header = "sharesheet contacts index 1"

        /// The entries, when the file was made from `folder` as `stamp` describes it and is
        /// younger than `longestAge`; nil for anything else (missing, old, cut, another format).
        static func read(_ url: URL, folder: URL, stamp: FolderStamp, now: Date) -> [ContactDirectory.Entry]? {
            var info = stat()
            guard stat(url.path, &info) == 0, now.timeIntervalSince1970 - Double(info.st_mtim.tv_sec) < longestAge,
                let data = FileManager.default.contents(atPath: url.path)
            else { return nil }
            // Split as bytes: the separators are ASCII, and splitting a String goes character by
            // character (grapheme clusters), ten times slower for 2,000 lines.
            return data.withUnsafeBytes { raw -> [ContactDirectory.Entry]? in
                let bytes = raw.bindMemory(to: UInt8.self)
                let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
                func text(_ part: Slice<UnsafeBufferPointer<UInt8>>) -> String { String(decoding: part, as: UTF8.self) }
                guard lines.count >= 5, text(lines[0]) == header, text(lines[1]) == "folder\t" + folder.path,
                    text(lines[2]) == "stamp\t\(stamp.seconds)\t\(stamp.nanoseconds)\t\(stamp.cards)",
                    lines[lines.count - 1].isEmpty, text(lines[lines.count - 2]) == "end\t\(lines.count - 5)"
                else { return nil }
                var entries: [ContactDirectory.Entry] = []
                entries.reserveCapacity(lines.count - 5)
                for line in lines[3..<(lines.count - 2)] {
                    let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
                    guard fields.count == 4 else { return nil }
                    func list(_ field: Slice<UnsafeBufferPointer<UInt8>>) -> [String] { field.split(separator: 0x1F).map(text) }
                    entries.append(
                        ContactDirectory.Entry(
                            name: text(fields[0]), addresses: list(fields[1]), numbers: list(fields[2]),
                            photoPath: fields[3].isEmpty ? nil : text(fields[3])))
                }
                return entries
            }
        }

        /// Writes the index to a temporary file beside `url` and renames it over `url`.
        static func write(_ entries: [ContactDirectory.Entry], folder: URL, stamp: FolderStamp, to url: URL) throws {
            func clean(_ value: String) -> String {
                String(value.map { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{1F}" || $0 == "\r\n" ? " " : $0 })
            }
            var text = "\(header)\nfolder\t\(folder.path)\nstamp\t\(stamp.seconds)\t\(stamp.nanoseconds)\t\(stamp.cards)\n"
            for entry in entries {
                text += clean(entry.name) + "\t" + entry.addresses.map(clean).joined(separator: "\u{1F}") + "\t"
                    + entry.numbers.map(clean).joined(separator: "\u{1F}") + "\t" + clean(entry.photoPath ?? "") + "\n"
            }
            text += "end\t\(entries.count)\n"
            try CacheFile.write(Data(text.utf8), to: url)
        }
    }

    /// Contacts' photos as files, named after their bytes: `avatars/0123456789abcdef.jpg`.
    enum Avatars {
        /// Writes `photo` unless a file of that name is there already; returns the file's name.
        static func store(_ photo: Data, in folder: URL) throws -> String {
            let name = fingerprint(photo) + "." + fileExtension(photo)
            let url = folder.appendingPathComponent(name)
            if !FileManager.default.fileExists(atPath: url.path) { try CacheFile.write(photo, to: url) }
            return name
        }

        /// Removes the photos no card holds any more.
        static func removeAll(in folder: URL, except kept: Set<String>) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
            for name in names where !name.hasPrefix(".") && !kept.contains(name) {
                unlink(folder.appendingPathComponent(name).path)
            }
        }

        /// The photo's name without its extension: the one the Contacts module gives a photo
        /// file, so the suggestions and Assign to Contact name the same photo alike.
        static func fingerprint(_ data: Data) -> String { ContactPhotoFiles.fingerprint(data) }

        /// What the bytes are, for a viewer that goes by the name: jpg, png, gif, webp, else img.
        static func fileExtension(_ data: Data) -> String {
            let head = [UInt8](data.prefix(12))
            if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
            if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
            if head.starts(with: Array("GIF8".utf8)) { return "gif" }
            if head.count >= 12, head[8..<12].elementsEqual("WEBP".utf8) { return "webp" }
            return "img"
        }
    }

    /// Writes a cache file through a temporary file and a rename, so a reader sees the old file
    /// or the whole new one. Not synced to disk: a cache lost in a power cut is made again, and a
    /// first index with a few hundred photos would otherwise wait on as many syncs.
    enum CacheFile {
        static func write(_ data: Data, to url: URL) throws {
            let folder = url.deletingLastPathComponent()
            if !FileManager.default.fileExists(atPath: folder.path) {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
            let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UUID().uuidString).tmp")
            do {
                try data.write(to: temporary)
                guard rename(temporary.path, url.path) == 0 else {
                    throw ShareError(.ioError, "\(url.path): cannot replace: \(String(cString: strerror(errno)))")
                }
            } catch {
                unlink(temporary.path)
                throw error
            }
        }
    }
}
