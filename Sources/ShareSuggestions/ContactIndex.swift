import Contacts
import Foundation
import ShareSheet
import ShareSheetSystem

/// The contacts folder as suggestions need it, read from every card once and then kept: in
/// `$XDG_CACHE_HOME/sharesheet/contacts-index` for the next process, and in memory for the next
/// sheet of this one. Reading 2,000 cards takes a tenth of a second or more; a sheet is built in
/// a fraction of a millisecond (BENCHMARKS.md, "Suggestions").
///
/// **When it is made again.** The index remembers the folder's modification time and how many
/// `.vcf` files it held. khard, vdirsyncer and Assign to Contact write a card to a temporary file
/// and rename it into the folder, and a rename, a new file and a removal all change the folder's
/// time; the count catches a file system whose times are too coarse to tell two changes apart.
/// A card edited in place (its file rewritten without a rename: `cat >> card.vcf`) changes
/// neither, so an index is also made again once it is a day old (`longestAge`). An index made
/// within `unsettled` of the folder's last change is not trusted by the next sheet: a change in
/// the same tick of the file system's clock would leave the folder's time as it was.
///
/// Photos embedded in cards are written once each under `avatars/`, named after their bytes,
/// for the window to draw (`ActivitySuggestion.photoPath`); those no card holds any more go when
/// the index is made again. Every file is written to a temporary name and renamed, so a reader
/// sees the old file or the new one; an index that cannot be read is made again, silently.
enum ContactIndex {
    /// An index older than this is made again, for cards edited in place.
    static let longestAge: TimeInterval = 86_400
    /// An index made this soon after the folder's last change is made again by the next sheet.
    static let unsettled: TimeInterval = 2

    /// What an index was made from: the folder's modification time and its number of cards.
    struct FolderStamp: Equatable, Sendable {
        var seconds: Int
        var nanoseconds: Int
        var cards: Int
    }

    /// The index file under `directories`' cache folder.
    static func indexURL(in directories: XDGDirectories) -> URL {
        directories.cacheHome.appendingPathComponent("sharesheet/contacts-index")
    }

    /// Where photos go.
    static func avatarFolder(in directories: XDGDirectories) -> URL {
        directories.cacheHome.appendingPathComponent("sharesheet/avatars", isDirectory: true)
    }

    /// How many times this process read every card of a folder (for tests).
    static var rebuilds: Int { kept.withLock { $0.rebuilds } }

    private struct Kept {
        var directories: [String: KeptDirectory] = [:]
        var rebuilds = 0
        var generations = 0
    }

    /// A folder's contacts as this process read them. A sheet reuses them after one `stat` of
    /// the folder, without counting its cards, when they were read well after the folder's last
    /// change (`unsettled`): then only a change moves the folder's time.
    private struct KeptDirectory {
        var stamp: FolderStamp
        var settled: Bool
        var directory: ContactDirectory
    }

    /// True while the contacts this process kept for `folder` as `generation` are the folder's
    /// (settled, and the folder's time unchanged): one `stat`.
    static func isCurrent(folder: String, generation: Int) -> Bool {
        guard let known = kept.withLock({ $0.directories[folder] }), known.settled,
            known.directory.origin?.generation == generation
        else { return false }
        var info = stat()
        return stat(folder, &info) == 0 && Int(info.st_mtim.tv_sec) == known.stamp.seconds
            && Int(info.st_mtim.tv_nsec) == known.stamp.nanoseconds
    }

    private static let kept = Locked(Kept())

    /// Forgets what this process kept, so the next sheet reads the index file.
    static func forgetKept() { kept.withLock { $0.directories = [:] } }

    /// The contacts of `folder`: as this process kept them, else from the index file, else read
    /// from every card (and the index written). A missing folder has no contacts.
    static func directory(folder: URL, directories: XDGDirectories, now: Date = Date()) -> ContactDirectory {
        // Kept by folder: the index's place only matters for the file.
        let key = folder.path
        if let known = kept.withLock({ $0.directories[key] }), known.settled, let time = modificationTime(of: folder),
            time.seconds == known.stamp.seconds, time.nanoseconds == known.stamp.nanoseconds
        {
            return known.directory
        }
        guard let stamp = stamp(of: folder) else { return ContactDirectory() }
        if let known = kept.withLock({ $0.directories[key] }), known.stamp == stamp { return known.directory }
        let index = indexURL(in: directories)
        var directory: ContactDirectory
        if let entries = IndexFile.read(index, folder: folder, stamp: stamp, now: now) {
            directory = ContactDirectory(entries: entries)
        } else {
            directory = ContactDirectory(entries: rebuild(folder: folder, stamp: stamp, directories: directories, now: now))
        }
        let settled = isSettled(stamp, at: now)
        return kept.withLock { kept -> ContactDirectory in
            kept.generations += 1
            directory.origin = (key, kept.generations)
            kept.directories[key] = KeptDirectory(stamp: stamp, settled: settled, directory: directory)
            return directory
        }
    }

    /// True when `stamp`'s folder last changed `unsettled` or more before `now`.
    private static func isSettled(_ stamp: FolderStamp, at now: Date) -> Bool {
        now.timeIntervalSince1970 - (Double(stamp.seconds) + Double(stamp.nanoseconds) / 1e9) >= unsettled
    }

    /// The folder's modification time alone: one `stat`.
    private static func modificationTime(of folder: URL) -> (seconds: Int, nanoseconds: Int)? {
        var info = stat()
        guard stat(folder.path, &info) == 0 else { return nil }
        return (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec))
    }

    /// Reads every card, writes the photos and the index, and returns the entries.
    private static func rebuild(folder: URL, stamp: FolderStamp, directories: XDGDirectories, now: Date) -> [ContactDirectory.Entry] {
        kept.withLock { $0.rebuilds += 1 }
        guard let listing = try? ContactBook(folder: folder).load() else { return [] }
        let avatars = avatarFolder(in: directories)
        AtomicFile.removeAbandonedTemporaries(in: avatars)
        AtomicFile.removeAbandonedTemporaries(in: avatars.deletingLastPathComponent())
        var written: Set<String> = []
        let entries = listing.contacts.map { contact in
            var photoPath: String?
            if let photo = contact.photo?.data, let name = try? Avatars.store(photo, in: avatars) {
                written.insert(name)
                photoPath = avatars.appendingPathComponent(name).path
            }
            return ContactDirectory.Entry(
                name: contact.displayName, addresses: contact.emailAddresses, numbers: contact.phoneNumbers, photoPath: photoPath)
        }
        Avatars.removeAll(in: avatars, except: written)
        // The folder changed while it was read, or changed so lately that another change could
        // still hide in the same tick: written for this sheet, made again by the next.
        var trusted = stamp
        if !isSettled(stamp, at: now) || self.stamp(of: folder) != stamp { trusted.cards = -1 }
        try? IndexFile.write(entries, folder: folder, stamp: trusted, to: indexURL(in: directories))
        return entries
    }

    /// The folder's modification time and number of `.vcf` files; nil when it cannot be read.
    static func stamp(of folder: URL) -> FolderStamp? {
        var info = stat()
        guard stat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, let listing = opendir(folder.path) else { return nil }
        defer { closedir(listing) }
        var cards = 0
        while let entry = readdir(listing) {
            let isCard = withUnsafeBytes(of: entry.pointee.d_name) { raw -> Bool in
                let name = raw.bindMemory(to: UInt8.self)
                let length = name.firstIndex(of: 0) ?? name.count
                guard length > 4, name[0] != UInt8(ascii: ".") else { return false }
                let tail = name[(length - 4)..<length].map { $0 | 0x20 }
                return tail == Array(".vcf".utf8)
            }
            if isCard { cards += 1 }
        }
        return FolderStamp(seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec), cards: cards)
    }
}
