import Foundation

/// The history's files beside the database: its folder, and a damaged database set aside.
enum HistoryFiles {
    /// Makes the folder of `database`, private to the person, when it is missing.
    static func makeFolder(of database: URL) throws {
        let folder = database.deletingLastPathComponent()
        guard !FileManager.default.fileExists(atPath: folder.path) else { return }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Renames `database` (and its `-wal` and `-shm` files) to `history.sqlite.corrupt-TIMESTAMP`,
    /// so the next open starts a new history and the old one stays for a person to look at.
    /// - Returns: the one warning to say.
    static func setAside(_ database: URL, because reason: String) throws -> String {
        let stamp = timestamp(Date())
        var aside = database.path + ".corrupt-" + stamp
        var number = 1
        while FileManager.default.fileExists(atPath: aside) {
            number += 1
            aside = database.path + ".corrupt-\(stamp)-\(number)"
        }
        guard rename(database.path, aside) == 0 || errno == ENOENT else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: database.path])
        }
        for suffix in ["-wal", "-shm"] {
            if FileManager.default.fileExists(atPath: database.path + suffix) {
                _ = rename(database.path + suffix, aside + suffix)
            }
        }
        let name = (aside as NSString).lastPathComponent
        return "history: \(database.path) is not a usable database (\(reason)); set it aside as \(name) and started a new history"
    }

    /// `20261205T015400Z`: UTC, sortable, no characters a shell or file manager minds.
    private static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }
}
