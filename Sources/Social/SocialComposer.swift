import Foundation
import OpenIn
import ShareSheet
import ShareSheetSystem

/// Posts to a service without the sheet: the plain API of SPEC §3 (`SocialComposer`).
///
/// With an account (`share accounts add SERVICE`) the post goes through the service's HTTP API
/// and the result is the address of what was posted. Without one, services with a web share
/// page (X, Facebook, Weibo, Mastodon) open it in the browser with the text filled in; Flickr
/// and Vimeo cannot post without an account.
///
/// ```swift
/// let composer = SocialComposer(service: .mastodon)
/// print(composer.count("Hello https://example.com/a/very/long/link"))  // 29/500
/// let posted = try await composer.post(SocialPost(text: "Hello"))
/// ```
public struct SocialComposer: Sendable {
    /// How a post would go.
    public enum Route: Sendable, Equatable {
        /// Through the service's API with the account kept in `location`.
        case api(AccountStore.Location)
        /// Through the service's web share page, opened in the browser.
        case webPage
        /// It cannot go: why, and what would let it (an account to add).
        case unavailable(Unavailability)
    }

    /// The service posted to.
    public let service: SocialService
    /// The settings (`[mastodon] instance=`, `[SERVICE] api=`, `[social] rate-limit-wait=`).
    public var configuration: Configuration
    /// Where the account's token is kept.
    public var accounts: AccountStore
    /// Opens a web share page; the desktop's default browser unless replaced.
    public var openWebPage: @Sendable (URL) throws -> Void
    /// Replaces the rate-limit wait (for tests); nil sleeps.
    var sleeper: (@Sendable (Int) async throws -> Void)?

    /// A composer for `service`.
    /// - Parameters:
    ///   - configuration: the settings; this process's configuration file by default.
    ///   - accounts: the account store; this process's user's by default.
    ///   - openWebPage: how a web share page is opened; `Workspace.shared.open` by default.
    public init(
        service: SocialService, configuration: Configuration? = nil, accounts: AccountStore = AccountStore(),
        openWebPage: (@Sendable (URL) throws -> Void)? = nil
    ) {
        self.service = service
        self.configuration = configuration ?? ((try? HostEnvironment.process.loadConfiguration()) ?? .empty)
        self.accounts = accounts
        self.openWebPage = openWebPage ?? { url in _ = try Workspace.shared.open(url) }
    }

    /// A composer for `service` with the configuration file and accounts of a host environment.
    /// - Throws: `ShareError(.badData)` when its configuration file is malformed.
    public init(service: SocialService, host: HostEnvironment, openWebPage: (@Sendable (URL) throws -> Void)? = nil) throws {
        self.init(
            service: service, configuration: try host.loadConfiguration(), accounts: AccountStore(environment: host.variables),
            openWebPage: openWebPage)
    }

    /// Makes the rate-limit wait call `sleeper` instead of sleeping.
    public func waiting(with sleeper: @escaping @Sendable (Int) async throws -> Void) -> SocialComposer {
        var copy = self
        copy.sleeper = sleeper
        return copy
    }

    // MARK: Counting

    /// The service's limit: `max-characters=` in its group, else its usual one.
    public var limit: Int? {
        configuration.integer("max-characters", in: service.configurationGroup) ?? service.defaultLimit
    }

    /// How much of the limit `text` uses, counted the way the service counts.
    public func count(_ text: String) -> CharacterCount {
        CharacterCount(used: CharacterCounter.count(text, rule: service.countingRule), limit: limit)
    }

    /// Why `text` cannot be posted as it is, or nil.
    public func problem(withText text: String) -> String? {
        let counted = count(text)
        guard counted.isOverLimit, let limit = counted.limit else { return nil }
        return "the text is \(counted.used) characters as \(service.displayName) counts them; "
            + "\(service.displayName) takes \(limit)"
    }

    // MARK: Routing

    /// How a post with (or without) attachments and a link would go. Asks only whether there is
    /// an account (``AccountStore/account(for:)``): no token is read, no keyring unlocked.
    public func route(hasAttachments: Bool, hasLink: Bool) -> Route {
        Self.route(
            for: service, account: Result { try accounts.account(for: service) }, hasAttachments: hasAttachments,
            hasLink: hasLink)
    }

    /// How a post to `service` would go, given what ``AccountStore/account(for:)`` said.
    static func route(
        for service: SocialService, account: Result<AccountStore.Location?, any Error>, hasAttachments: Bool, hasLink: Bool
    ) -> Route {
        switch account {
        case .success(let location?): return .api(location)
        case .success(nil): break
        case .failure(let error as ShareError): return .unavailable(Unavailability(error))
        case .failure(let error): return .unavailable(Unavailability("\(error)"))
        }
        guard service.hasWebSharePage else { return .unavailable(service.accountRequired) }
        if hasAttachments {
            return .unavailable(
                service.noAccount("\(service.displayName)'s web share page cannot take files, and no account is set up"))
        }
        if service == .facebook, !hasLink {
            return .unavailable(service.noAccount("Facebook's share page takes only a link, and no account is set up"))
        }
        return .webPage
    }

    /// How `post` would go.
    public func route(for post: SocialPost) -> Route {
        route(hasAttachments: !post.attachments.isEmpty, hasLink: post.firstLink != nil)
    }

    /// The Mastodon instance whose share page is opened without an account.
    var mastodonInstance: URL { SocialService.mastodon.apiBase(in: configuration) }

    // MARK: Posting

    /// Posts `post`: through the API with an account, else through the web share page.
    /// - Returns: the addresses of what was posted (or of the share page that was opened).
    /// - Throws: a `ShareError` a person can act on: `.configuration` (78) for a refused token,
    ///   `.unavailable` (69) for no way to post, `.temporaryFailure` (75) for a rate limit or the network, `.badData`
    ///   (65) for text over the limit or files the service does not take.
    public func post(_ post: SocialPost, progress: Progress = Progress(totalUnitCount: 1)) async throws -> [URL] {
        do {
            return try await send(post, progress: progress)
        } catch let notReached as PostNotReached {
            throw notReached.error
        }
    }

    /// Posts `post` as ``post(_:progress:)`` does, saying apart a post that can wait.
    /// - Parameters:
    ///   - idempotencyKey: the key a queued post was first sent with (Mastodon).
    ///   - apiOnly: true fails instead of opening the web share page (a queued post is sent
    ///     with no one at the screen).
    /// - Throws: `PostNotReached` when the server could not be reached and nothing was made;
    ///   else a `ShareError` as ``post(_:progress:)``.
    func send(
        _ post: SocialPost, idempotencyKey: String? = nil, apiOnly: Bool = false,
        progress: Progress = Progress(totalUnitCount: 1)
    ) async throws -> [URL] {
        if post.text.isEmpty, post.attachments.isEmpty {
            throw ShareError(.noInput, "\(service): nothing to post")
        }
        if let problem = problem(withText: post.text) { throw ShareError(.badData, "\(service): \(problem)") }
        switch route(for: post) {
        case .unavailable(let why):
            throw ShareError(.unavailable, "\(service): \(why.reason)", setting: why.setting, fix: why.fix, path: why.path)
        case .webPage:
            if apiOnly {
                let why = service.noAccount("there is no \(service.displayName) account here any more")
                throw ShareError(.configuration, "\(service): \(why.reason)", setting: why.setting, fix: why.fix)
            }
            return [try openSharePage(for: post)]
        case .api(let location):
            // The one place the token is read: after the pick, to send.
            let token = try accounts.tokenForPosting(to: service, keptIn: location)
            let session = ServiceSession(
                service: service, maxRateLimitWait: configuration.integer("rate-limit-wait", in: "social") ?? 120,
                sleeper: sleeper)
            let context = PostingContext(
                session: session, base: service.apiBase(in: configuration), configuration: configuration,
                token: token.secret, progress: progress, idempotencyKey: idempotencyKey)
            do {
                return try await service.poster.post(post, context: context)
            } catch let error as ShareError {
                throw PostNotReached(error, ledger: session.ledger, server: context.base) ?? error
            }
        }
    }

    /// The web share page for `post`, without opening it.
    public func sharePage(for post: SocialPost) -> URL? {
        let link = service == .mastodon ? nil : post.firstLink
        let text = service == .mastodon ? post.text : post.textWithoutFirstLink
        return service.webSharePage(text: text, link: link, instance: mastodonInstance)
    }

    private func openSharePage(for post: SocialPost) throws -> URL {
        guard let page = sharePage(for: post) else {
            let why = service.accountRequired
            throw ShareError(.unavailable, "\(service): \(why.reason)", setting: why.setting, fix: why.fix)
        }
        do {
            try openWebPage(page)
        } catch {
            throw ShareError(.unavailable, "\(service): cannot open \(service.displayName)'s share page: \(error)")
        }
        return page
    }
}
