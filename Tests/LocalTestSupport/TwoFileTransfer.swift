import Foundation

/// Two files for AirDrop over a slow link: a small one that reaches the receiver at once and a
/// large one that takes half a minute, so a test can cancel while one item is finished and the
/// other is not (SPEC §11: a cancel keeps finished work in every front end).
public struct TwoFileTransfer {
    /// The small file (40 KB): at 1 Mbit/s it arrives in well under a second.
    public let small: URL
    /// The large file (4 MB): about 35 s at 1 Mbit/s.
    public let large: URL

    /// Writes both files into `folder` and limits what leaves `pair`'s side of the link.
    public init(in folder: URL, limiting pair: NetworkPair) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        small = folder.appendingPathComponent("small.txt")
        large = folder.appendingPathComponent("large.bin")
        try writeRandomFile(small, size: 40_000, seed: 21)
        try writeRandomFile(large, size: 4_000_000, seed: 22)
        try pair.limitRate(megabitsPerSecond: 1)
    }

    /// Waits until `receiver` holds the small file whole (the large one is still on its way),
    /// then a second more: the receiver writes the file before it answers the upload, and the
    /// sender counts a file as delivered only once that answer is back over the slow link.
    /// - Returns: false after `timeout` seconds.
    public func waitUntilTheSmallOneArrived(at receiver: LocalSendPeer, timeout: Double = 30) async -> Bool {
        let received = receiver.downloads.appendingPathComponent("small.txt")
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if filesAreIdentical(small, received) {
                try? await Task.sleep(for: .seconds(1))
                return true
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// True when the receiver kept the small file and has no whole copy of the large one.
    public func onlyTheSmallOneArrived(at receiver: LocalSendPeer) -> Bool {
        filesAreIdentical(small, receiver.downloads.appendingPathComponent("small.txt"))
            && !filesAreIdentical(large, receiver.downloads.appendingPathComponent("large.bin"))
    }
}
