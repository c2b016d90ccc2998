import Foundation

/// A file as `stat` sees it: a write changes the modification time, a checkpoint the size, a
/// new file the inode. Not the change time: SQLite running as root gives the log its
/// database's owner at every open, which changes it.
struct FileStamp: Equatable, Sendable {
    var inode: UInt64
    var size: Int64
    var seconds: Int
    var nanoseconds: Int

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        seconds = Int(info.st_mtim.tv_sec)
        nanoseconds = Int(info.st_mtim.tv_nsec)
    }

    init(inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int) {
        (self.inode, self.size, self.seconds, self.nanoseconds) = (inode, size, seconds, nanoseconds)
    }

    /// `INODE:SIZE:SECONDS:NANOSECONDS`, or `-` for a file that is not there.
    static func text(_ stamp: FileStamp?) -> String {
        guard let stamp else { return "-" }
        return "\(stamp.inode):\(stamp.size):\(stamp.seconds):\(stamp.nanoseconds)"
    }
}

/// The history database and its write-ahead log, where every share since the last checkpoint
/// is: together they change with every share recorded or forgotten.
struct HistoryStamp: Equatable, Sendable {
    var database: FileStamp?
    var log: FileStamp?

    init(databasePath path: String) {
        database = FileStamp(path: path)
        log = FileStamp(path: path + "-wal")
    }

    init(database: FileStamp?, log: FileStamp?) {
        self.database = database
        self.log = log
    }

    /// Both stamps, as a snapshot file holds them.
    var text: String { FileStamp.text(database) + " " + FileStamp.text(log) }
}
