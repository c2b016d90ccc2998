import CCurl
import CurlClient
import Foundation

/// A remote file downloaded only after the pick, with progress and cancellation (seed 002's
/// problem, solved once).
///
/// The placeholder is the local file URL the download will have, named after the remote file,
/// so the sheet offers what fits its type without touching the network.
open class RemoteFileProvider: FileProvider, @unchecked Sendable {
    /// The address the file comes from.
    public let remoteURL: URL

    /// Makes a provider that downloads `url` after the pick.
    /// - Parameters:
    ///   - url: the remote file's address.
    ///   - filename: the local name; defaults to the URL's last path component.
    public init(url: URL, filename: String? = nil) {
        remoteURL = url
        let name = filename ?? RemoteFileProvider.defaultName(for: url)
        super.init(filename: name) { destination, progress in
            try await Download.run(url, to: destination, progress: progress)
        }
    }

    static func defaultName(for url: URL) -> String {
        let last = url.lastPathComponent
        return last.isEmpty || last == "/" ? (url.host ?? "download") : last
    }
}

/// One download into a file with libcurl (through `CurlClient`, loaded on first use: Foundation's
/// URLSession would link libcurl and its libraries into every program that shows a sheet),
/// cancellable, reporting bytes to a `Progress`.
enum Download {
    static func run(_ url: URL, to destination: URL, progress: Progress) async throws {
        let name = url.absoluteString
        var transfer = CurlTransfer(url: name)
        transfer.responseFile = destination
        transfer.followsRedirects = true
        transfer.onProgress = { counts in
            if counts.downloadTotal > 0, progress.totalUnitCount != counts.downloadTotal {
                progress.totalUnitCount = counts.downloadTotal
            }
            if progress.completedUnitCount != counts.downloaded { progress.completedUnitCount = counts.downloaded }
            return true
        }
        let response: CurlResponse
        do {
            response = try await CurlClient.send(transfer)
        } catch let error as CurlError {
            if error.code == CURLE_WRITE_ERROR {
                throw ShareError(.ioError, "\(destination.lastPathComponent): \(error.detail)")
            }
            throw ShareError(.temporaryFailure, "\(name): \(error.detail.isEmpty ? error.text : error.detail)")
        }
        try Task.checkCancellation()
        guard (200..<300).contains(response.status) else {
            throw ShareError(.noInput, "\(name): the server answered \(response.status)")
        }
    }
}
