import Foundation
import ShareSheet
import ShareSheetSystem

extension ItemAcceptance {
    /// Mastodon: text, links, and images, videos and audio as media attachments.
    public static let mastodon = ItemAcceptance("text, web links, images, videos and audio") { kind in
        switch kind {
        case .string, .attributedString, .webURL, .image, .asset: return true
        case .fileURL(let type), .data(let type, _):
            return type.conforms(to: .image) || type.conforms(to: .movie) || type.conforms(to: .audio)
        default: return false
        }
    }
}

extension BuiltInActivityDescriptor {
    /// Post to Mastodon: ShareSheet's own built-in, in the share row.
    public static let mastodon = BuiltInActivityDescriptor(
        type: .postToMastodon, title: "Mastodon", name: "mastodon", category: .share, acceptance: .mastodon)
}

/// Installs the posting activities: Mastodon is added to the registry, then X, Facebook, Weibo,
/// Flickr, Vimeo and Mastodon get their backend.
@MainActor
public enum SocialActivities {
    /// Adds Mastodon and installs every service's activity into `registry`.
    public static func install(into registry: ActivityRegistry) {
        registry.add(.mastodon)
        for service in SocialService.allCases {
            guard let descriptor = registry.descriptor(for: service.activityType) else { continue }
            registry.install(service.activityType) { SocialActivity(service: service, descriptor: descriptor) }
        }
    }
}

/// Posts the items to a service: the compose interface (text prefilled from the items, the
/// count against the service's limit, the attachments, the account), then the service's API
/// or web share page through `SocialComposer`.
public final class SocialActivity: BuiltInActivity {
    /// The service posted to.
    public let service: SocialService
    private let givenComposer: (@Sendable () throws -> SocialComposer)?
    private var post = SocialPost(text: "")
    private var work: Task<Void, Never>?

    /// Makes the activity for `service`; `composer` makes the composer it posts with (by
    /// default the configuration and accounts of the activity's `hostEnvironment`, read when
    /// the sheet asks).
    public init(
        service: SocialService, descriptor: BuiltInActivityDescriptor,
        composer: (@Sendable () throws -> SocialComposer)? = nil
    ) {
        self.service = service
        givenComposer = composer
        super.init(descriptor: descriptor)
    }

    /// Makes the composer: the given closure's, else one for the host environment.
    private func makeComposer() throws -> SocialComposer {
        if let givenComposer { return try givenComposer() }
        return try SocialComposer(service: service, host: hostEnvironment)
    }

    public override func canPerform(withActivityItems activityItems: [Any]) -> Bool {
        unavailableReason(forActivityItems: activityItems) == nil
    }

    public override func unavailableReason(forActivityItems activityItems: [Any]) -> String? {
        unavailability(forActivityItems: activityItems)?.reason
    }

    /// Why it is not offered, with the account to add when one would let it post.
    public override func unavailability(forActivityItems activityItems: [Any]) -> Unavailability? {
        guard givenComposer == nil else { return reason(forActivityItems: activityItems, checks: nil) }
        // A sheet asks canPerform, then again for the reason of those it does not offer: both
        // answered from one check, with the configuration and accounts read once for the sheet.
        let environment = hostEnvironment
        var checks = sheetValue(forItems: activityItems) { SocialSheetChecks(environment: environment) }
        if checks.environment != environment { checks = SocialSheetChecks(environment: environment) }
        if let known = checks.reasons[ObjectIdentifier(self)] { return known }
        let reason = reason(forActivityItems: activityItems, checks: checks)
        checks.reasons[ObjectIdentifier(self)] = .some(reason)
        return reason
    }

    /// Why the activity is not offered for these items, or nil; `checks` (the sheet's, or made
    /// for this call) reads the configuration and accounts, else the given composer does.
    private func reason(forActivityItems activityItems: [Any], checks: SocialSheetChecks?) -> Unavailability? {
        // The sheet's kinds, each once: whether any is accepted, and whether there are
        // attachments or a link, depends only on which kinds the accepted items have.
        let kinds = itemKinds(of: activityItems, distinct: true).filter(descriptor.acceptance.accepts)
        guard !kinds.isEmpty else {
            // Not super.unavailableReason: it asks canPerform, which is this method again.
            let kinds = itemKinds(of: activityItems).map(\.description)
            return Unavailability("it takes \(descriptor.acceptance.summary), and got \(kinds.joined(separator: ", "))")
        }
        let hasAttachments = kinds.contains { kind in
            switch kind {
            case .fileURL, .image, .asset, .data: return true
            default: return false
            }
        }
        let hasLink = kinds.contains(.webURL)
        let route: SocialComposer.Route?  // nil: no composer; the error shows when it runs
        if let checks {
            route = checks.route(for: service, hasAttachments: hasAttachments, hasLink: hasLink)
        } else {
            route = (try? makeComposer())?.route(hasAttachments: hasAttachments, hasLink: hasLink)
        }
        if case .unavailable(let reason)? = route { return reason }
        return nil
    }

    /// The API with an account, else the web share page, as for a post of text and a link.
    public override var route: ActivityRoute? {
        let keys = [ActivityRoute.Setting(group: service.configurationGroup, key: service == .mastodon ? "instance" : "api")]
        let composer: SocialComposer
        do {
            composer = try makeComposer()
        } catch {
            return ActivityRoute("cannot post: \((error as? ShareError)?.message ?? "\(error)")", settings: keys)
        }
        switch composer.route(hasAttachments: false, hasLink: true) {
        case .api(let location):
            let host = service.apiBase(in: composer.configuration).host ?? "the API"
            return ActivityRoute("posts through \(host) with the account kept in \(location)", settings: keys)
        case .webPage:
            return ActivityRoute(
                "no account: opens \(service.displayName)'s share page in the browser (text and links only)", isFallback: true,
                // An account changes this, not the API's address; Mastodon's page is on the instance.
                settings: service == .mastodon ? keys : [])
        case .unavailable(let why):
            return ActivityRoute("cannot post: \(why.reason)", settings: keys)
        }
    }

    /// The one field: the post's text.
    public override var declaredFields: [InterfaceField] {
        [InterfaceField(id: "text", label: "Text", kind: .multilineText, help: Self.countingHelp(service))]
    }

    public override func prepare(withActivityItems activityItems: [Any]) {
        post = SocialPost(items: activityItems)
        if case .text(let text)? = context.presetValues["text"] { post.text = text }
    }

    /// The post's text.
    public override var presetKeys: Set<String> { ["text"] }

    public override var activityInterface: ActivityInterface? {
        let composer: SocialComposer
        do {
            composer = try makeComposer()
        } catch {
            activityDidFail(error)
            return nil
        }
        let attachments = post.attachments.map(\.description).joined(separator: ", ")
        let account: String
        switch composer.route(for: post) {
        case .api(let location): account = "posting with the \(service) account in \(location)"
        case .webPage: account = "no account: opens \(service.displayName)'s share page in the browser"
        case .unavailable(let why): account = why.reason
        }
        var lines = [account]
        if !attachments.isEmpty { lines.append("attachments: \(attachments)") }
        lines.append("\(composer.count(post.text)) characters as \(service.displayName) counts them")
        var text = InterfaceField(
            id: "text", label: "Text", kind: .multilineText, isRequired: post.attachments.isEmpty,
            defaultValue: .text(post.text), help: Self.countingHelp(service))
        let rule = service.countingRule
        text.textLimit = composer.limit.map { limit in
            TextLimit(maximum: limit) { CharacterCounter.count($0, rule: rule) }
        }
        var interface = ActivityInterface(
            title: "Post to \(service.displayName)", message: lines.joined(separator: "\n"), fields: [text],
            submitTitle: "Post",
            validate: { values in
                let text = values["text"]?.text ?? ""
                return composer.problem(withText: text).map { ["text": $0] } ?? [:]
            },
            onSubmit: { [weak self] values in
                self?.send(values["text"]?.text ?? "", with: composer)
            })
        interface.sender = accountLine(composer.route(for: post), configuration: composer.configuration)
        interface.attachments = post.attachments.map { attachment in
            var fileURL: URL?
            if case .file(let url) = attachment.source { fileURL = url }
            return InterfaceAttachment(
                name: attachment.filename, byteCount: (try? attachment.size()).map(Int64.init), type: attachment.mimeType,
                fileURL: fileURL)
        }
        return interface
    }

    /// The account the post goes out as, in words for the window's Account line: the service
    /// and the server, or, with no account, where the post opens instead.
    private func accountLine(_ route: SocialComposer.Route, configuration: Configuration) -> InterfaceSender? {
        switch route {
        case .api:
            let host = service.apiBase(in: configuration).host ?? service.displayName
            return InterfaceSender(address: "\(service.displayName) on \(host)", isGuessed: false, heading: "Account")
        case .webPage:
            return InterfaceSender(
                address: "No account set up", isGuessed: false, heading: "Account",
                note: "The post opens on \(service.displayName)'s own page in your browser, where you sign in and send it.")
        case .unavailable:
            return nil
        }
    }

    /// How the service counts, for the text field's hint.
    static func countingHelp(_ service: SocialService) -> String {
        switch service {
        case .twitter: return "links count 23, emoji and CJK characters 2"
        case .mastodon: return "links count 23, @user@server mentions as @user"
        case .weibo: return "CJK characters count 1, two Latin characters 1, a link 10"
        case .facebook: return "every character counts"
        case .flickr, .vimeo: return "the first line is the title"
        }
    }

    private func send(_ text: String, with composer: SocialComposer) {
        var post = post
        post.text = text
        let progress = progress
        let route = composer.route(for: post)
        let queue = ShareQueue(directories: hostEnvironment.directories)
        work = Task.detached { [weak self] in
            do {
                let posted = try await composer.send(post, progress: progress)
                await MainActor.run {
                    guard let self else { return }
                    self.returnedItems = posted
                    self.location = posted.first?.absoluteString
                    if route == .webPage {
                        self.disposition = .opened
                        self.fallback = Self.webPageFallback(self.service)
                    } else {
                        self.disposition = .posted
                    }
                    self.activityDidFinish(true)
                }
            } catch is CancellationError {
                self?.activityDidFinish(false)
            } catch let notReached as PostNotReached {
                // The server is out of reach and nothing was made: the post waits (SPEC §14).
                let queued = Result { try PostQueueing.queue(post, composer: composer, notReached: notReached, in: queue) }
                await MainActor.run {
                    guard let self else { return }
                    switch queued {
                    case .success(let entry): self.finishQueued(entry, fallback: notReached.fallback)
                    case .failure(let error):
                        let reason = (error as? ShareError)?.message ?? "\(error)"
                        self.activityDidFail(
                            ShareError(notReached.error.kind, "\(notReached.error.message) (and it could not wait: \(reason))"))
                    }
                }
            } catch {
                self?.activityDidFail(error)
            }
        }
    }

    /// Ends a post that waits in the share queue: queued, said in words.
    private func finishQueued(_ entry: ShareQueue.Entry, fallback: ActivityFallback) {
        returnedItems = [entry.share.id]
        location = entry.folder.path
        disposition = .queued
        self.fallback = fallback
        activityDidFinish(true)
    }

    /// What opening the web share page instead of posting says, and how to post instead.
    static func webPageFallback(_ service: SocialService) -> ActivityFallback {
        ActivityFallback(
            message: "There is no \(service.displayName) account here, so the share page opened in the browser.",
            setting: .init(group: "accounts", service.rawValue), fix: .addAccount)
    }

    public override func cancel() {
        work?.cancel()
    }
}

/// What a sheet's posting activities check while it is built, worked out once for all of them
/// (`BuiltInActivity.sheetValue`): whether the host's configuration loads, and where each
/// service's account is kept, as a composer for the host would find them.
@MainActor
final class SocialSheetChecks {
    /// The host environment the answers are for.
    let environment: HostEnvironment
    /// Each activity's answer (by identity) for the sheet's items, once worked out.
    var reasons: [ObjectIdentifier: Unavailability?] = [:]
    private var configurationLoads: Bool?
    private let accounts: AccountStore.Lookup

    private let configurationFile: URL

    init(environment: HostEnvironment) {
        self.environment = environment
        // Both made from the variables alone, and every sheet of a service is for the same host.
        let host: Host
        if let last = Self.lastHost, last.environment == environment {
            host = last
        } else {
            host = Host(
                environment: environment, accounts: AccountStore(environment: environment.variables),
                configurationFile: environment.directories.configurationFile)
            Self.lastHost = host
        }
        accounts = AccountStore.Lookup(host.accounts)
        configurationFile = host.configurationFile
    }

    /// A host environment's account store and configuration file.
    private struct Host {
        var environment: HostEnvironment
        var accounts: AccountStore
        var configurationFile: URL
    }

    private static var lastHost: Host?

    /// What `SocialComposer(service:host:).route(hasAttachments:hasLink:)` says; nil when that
    /// composer cannot be made (a malformed configuration file).
    func route(for service: SocialService, hasAttachments: Bool, hasLink: Bool) -> SocialComposer.Route? {
        // The host's loadConfiguration(), from the file's URL made once.
        let loads = configurationLoads ?? ((try? Configuration.load(file: configurationFile)) != nil)
        configurationLoads = loads
        guard loads else { return nil }
        return SocialComposer.route(
            for: service, account: Result { try accounts.account(for: service) }, hasAttachments: hasAttachments,
            hasLink: hasLink)
    }
}
