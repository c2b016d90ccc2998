import CurlClient
import Foundation
import ShareSheet

/// Vimeo: `POST /me/videos` asks for a tus upload (`upload.approach = tus`, the size), then the
/// file goes to the returned `upload_link` in `PATCH` requests (tus 1.0.0: `Upload-Offset`,
/// `application/offset+octet-stream`). When a PATCH is cut off, a `HEAD` asks the server how
/// much it has (`Upload-Offset`) and the upload goes on from there, never from the start.
struct VimeoPoster: Poster {
    /// How many interruptions in a row, with no byte gained, end the upload.
    static let maxStalledResumes = 5

    func post(_ post: SocialPost, context: PostingContext) async throws -> [URL] {
        let videos = post.attachments.filter(\.isVideo)
        guard !videos.isEmpty else { throw ShareError(.noInput, "vimeo: nothing to upload: Vimeo takes videos") }
        let chunkSize = context.setting("chunk-size").flatMap(Int.init).map { max($0, 1) } ?? 32 * 1024 * 1024
        var total: Int64 = 0
        for video in videos { total += Int64(try video.size()) }
        context.progress.kind = .file
        context.progress.isUpload = true
        context.progress.totalUnitCount = max(total, 1)
        var links: [URL] = []
        for video in videos {
            let size = try video.size()
            let (link, uploadLink) = try await create(video, size: size, text: post.text, context: context)
            try await upload(video, size: size, to: uploadLink, chunkSize: chunkSize, context: context)
            links.append(link)
        }
        return links
    }

    private func headers(_ context: PostingContext) -> [(String, String)] {
        [("Authorization", "bearer \(context.token)"), ("Accept", "application/vnd.vimeo.*+json;version=3.4")]
    }

    private func create(_ video: SocialAttachment, size: Int, text: String, context: PostingContext) async throws -> (URL, URL) {
        let name = text.split(whereSeparator: \.isNewline).first.map(String.init)
            ?? (video.filename as NSString).deletingPathExtension
        var body: [String: Any] = ["upload": ["approach": "tus", "size": String(size)], "name": String(name.prefix(128))]
        if !text.isEmpty { body["description"] = text }
        let request = HTTPRequest(
            "POST", context.endpoint("/me/videos"), headers: headers(context) + [("Content-Type", "application/json")],
            body: try JSONSerialization.data(withJSONObject: body))
        let response = try await context.session.send(
            request, what: "creating the video for \(video.filename)", idempotent: false,
            meaning: { ServiceSession.standardMeaning($0, errorKeys: ["error", "developer_message"]) })
        let upload = response.json?["upload"] as? [String: Any]
        guard let uploadLink = (upload?["upload_link"] as? String).flatMap(URL.init(string:)) else {
            throw ShareError(.unavailable, "vimeo: \(video.filename): the answer has no tus upload link")
        }
        let link =
            response.jsonURL("link")
            ?? (response.json?["uri"] as? String).flatMap { URL(string: "https://vimeo.com" + $0.replacingOccurrences(of: "/videos", with: "")) }
        guard let link else { throw ShareError(.unavailable, "vimeo: \(video.filename): the answer has no video link") }
        return (link, uploadLink)
    }

    private func upload(_ video: SocialAttachment, size: Int, to uploadLink: URL, chunkSize: Int, context: PostingContext) async throws {
        let base = context.progress.completedUnitCount
        var offset = 0
        var stalled = 0
        while offset < size {
            try Task.checkCancellation()
            let end = min(offset + chunkSize, size)
            var request = HTTPRequest(
                "PATCH", uploadLink,
                headers: [
                    ("Tus-Resumable", "1.0.0"), ("Upload-Offset", String(offset)),
                    ("Content-Type", "application/offset+octet-stream"),
                ],
                streaming: video.chunk(offset..<end))
            request.uploadProgress = HTTPRequest.UploadProgress(
                progress: context.progress, base: base + Int64(offset), limit: Int64(end - offset))
            do {
                let response = try await context.session.transport.send(request)
                switch response.status {
                case 200..<300:
                    let reported = response.header("Upload-Offset").flatMap(Int.init) ?? end
                    if reported > offset { stalled = 0 }
                    offset = reported
                case 409, 412, 460:
                    // The server has a different offset than ours: ask it.
                    offset = try await serverOffset(uploadLink, context: context, name: video.filename)
                case 401:
                    throw ShareError(
                        .configuration, "vimeo: Vimeo refused the account's token (expired or revoked)",
                        setting: .init(group: "accounts", "vimeo"), fix: .addAccount)
                default:
                    throw ShareError(
                        (500..<600).contains(response.status) ? .temporaryFailure : .unavailable,
                        "vimeo: uploading \(video.filename): HTTP \(response.status): \(response.snippet)")
                }
            } catch let failure as NetworkFailure {
                stalled += 1
                guard stalled <= Self.maxStalledResumes else {
                    throw ShareError(
                        .temporaryFailure,
                        "vimeo: uploading \(video.filename): \(failure.reason) after \(offset) of \(size) bytes; try again later")
                }
                let resumed = try await serverOffset(uploadLink, context: context, name: video.filename)
                if resumed > offset { stalled = 0 }
                offset = resumed
            }
            context.progress.completedUnitCount = base + Int64(offset)
        }
    }

    /// `HEAD` on the upload link: how many bytes the server has.
    private func serverOffset(_ uploadLink: URL, context: PostingContext, name: String) async throws -> Int {
        let request = HTTPRequest("HEAD", uploadLink, headers: [("Tus-Resumable", "1.0.0")])
        let response = try await context.session.send(
            request, what: "resuming \(name)", idempotent: true, meaning: { ServiceSession.standardMeaning($0) })
        guard let offset = response.header("Upload-Offset").flatMap(Int.init) else {
            throw ShareError(.unavailable, "vimeo: resuming \(name): the server did not say how much it has")
        }
        return offset
    }
}

extension SocialAttachment {
    /// The bytes in `range`, read from the file while they are sent.
    func chunk(_ range: Range<Int>) -> CurlBody {
        switch source {
        case .file(let url): return .fileRange(url, offset: Int64(range.lowerBound), length: Int64(range.count))
        case .data(let data): return .data(data.subdata(in: range))
        }
    }
}
