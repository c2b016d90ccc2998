import Foundation
import ShareSheet
import ShareSheetSystem
import UniformTypes

/// A post as the share queue keeps it, and back: `SocialActivity` queues a post whose server
/// could not be reached, and `PostQueueSender` posts it from the entry.
///
/// The text is the entry's text item and the attachments are copied into it. The parameters
/// hold what the poster needs that is not a secret: the service, the account (one per
/// service, named by the service), the service's settings as they were when the person posted
/// (instance, visibility, page…), and Mastodon's `Idempotency-Key`. The token stays in the
/// account store and is read again when the post goes.
enum PostQueueing {
    static let serviceKey = "service"
    static let accountKey = "account"
    static let idempotencyKey = "idempotency-key"
    /// The prefix of a service setting kept with the post (`setting.visibility`).
    static let settingPrefix = "setting."

    /// Queues `post`, which `composer` could not send for `notReached`, in `queue`.
    /// - Returns: the stored entry.
    /// - Throws: `ShareError` when the entry cannot be written (an attachment cannot be read).
    static func queue(
        _ post: SocialPost, composer: SocialComposer, notReached: PostNotReached, in queue: ShareQueue
    ) throws -> ShareQueue.Entry {
        let service = composer.service
        var parameters = [serviceKey: service.rawValue, accountKey: service.rawValue]
        for key in composer.configuration.keys(in: service.configurationGroup) {
            if let value = composer.configuration.string(key, in: service.configurationGroup) {
                parameters[settingPrefix + key] = value
            }
        }
        if let key = notReached.idempotencyKey { parameters[idempotencyKey] = key }
        var sources: [ShareQueue.Source] = []
        if !post.text.isEmpty { sources.append(.text(post.text)) }
        for attachment in post.attachments {
            switch attachment.source {
            case .file(let url): sources.append(.file(url, name: attachment.filename, mimeType: attachment.mimeType))
            case .data(let data): sources.append(.data(data, name: attachment.filename, mimeType: attachment.mimeType))
            }
        }
        let share = QueuedShare(
            kind: .post, activity: service.activityType.rawValue, target: service.rawValue,
            targetTitle: accountTitle(service, server: notReached.server), reason: notReached.reason, waitsFor: .network,
            parameters: parameters, items: [])
        return try queue.add(share, sources: sources)
    }

    /// The account in words. The store keeps one account per service and no user name (that
    /// would need the server), so it is named by its service and, for Mastodon, its instance.
    static func accountTitle(_ service: SocialService, server: String) -> String {
        service == .mastodon ? "your Mastodon account on \(server)" : "your \(service.displayName) account"
    }

    /// The service of a queued post.
    static func service(of share: QueuedShare) throws -> SocialService {
        guard let service = share.parameters[serviceKey].flatMap(SocialService.init(rawValue:)) else {
            throw ShareError(.badData, "queue: \(share.id) names no service to post to")
        }
        return service
    }

    /// The post stored in `entry`: its text and its copied attachments.
    static func post(of entry: ShareQueue.Entry) -> SocialPost {
        var texts: [String] = []
        var attachments: [SocialAttachment] = []
        for item in entry.share.items {
            if let url = entry.url(of: item) {
                var attachment = SocialAttachment(fileURL: url)
                if let name = item.file { attachment.filename = name }
                if let type = item.mimeType.flatMap({ UTType(mimeType: $0) }) { attachment.type = type }
                attachments.append(attachment)
            } else if let text = item.text {
                texts.append(text)
            }
        }
        return SocialPost(text: texts.joined(separator: " "), attachments: attachments)
    }

    /// `configuration` with the service's group as it was when the post was queued.
    static func configuration(_ configuration: Configuration, for share: QueuedShare, service: SocialService) -> Configuration {
        var values: [String: [String: String]] = [:]
        for group in configuration.groups {
            var settings: [String: String] = [:]
            for key in configuration.keys(in: group) { settings[key] = configuration.string(key, in: group) }
            values[group] = settings
        }
        var kept: [String: String] = [:]
        for (key, value) in share.parameters where key.hasPrefix(settingPrefix) {
            kept[String(key.dropFirst(settingPrefix.count))] = value
        }
        values[service.configurationGroup] = kept
        return Configuration(values)
    }
}
