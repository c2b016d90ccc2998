import Foundation
import ShareSheetSystem

/// The services whose token `share accounts` keeps in the Secret Service: their names, one a
/// line, never a token, in `$XDG_CACHE_HOME/sharesheet/secret-service-accounts` (mode 0600,
/// written atomically).
///
/// It lets a sheet show which services have an account without talking to the Secret Service:
/// asking it costs a D-Bus connection, may start the keyring daemon, and a look-up may prompt to
/// unlock. The Secret Service stays the truth: the token is read from it when a post is sent,
/// `share accounts add|remove|list` rewrite this list from an attributes-only search, and when the
/// list is missing one such search makes it again.
struct AccountIndex: Sendable {
    /// The list's file.
    let file: URL
    /// Its path, made once: a sheet reads the list for every call.
    let path: String

    init(directories: XDGDirectories) {
        file = directories.cacheHome.appendingPathComponent("sharesheet/secret-service-accounts", isDirectory: false)
        path = file.path
    }

    /// The file's first lines, for a person who opens it: facts only, no command line (SPEC §11;
    /// ShareSheet, not the person, keeps the file, and no front end words it).
    private static let header = """
        # Services with a ShareSheet token in the Secret Service: names only, never a token.
        # ShareSheet rewrites it whenever accounts are added, removed or listed. If it is wrong,
        # delete it: the next share makes it again from the Secret Service.

        """

    /// The services listed, or nil when there is no list to read.
    func read() -> Set<SocialService>? {
        // Each posting activity asks while one sheet is built: read once while it is unchanged.
        let listed = try? FileCache.value(at: path) { () -> Set<SocialService>? in
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            let names = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            return Set(names.lazy.filter { !$0.hasPrefix("#") }.compactMap { SocialService(rawValue: String($0)) })
        }
        return listed ?? nil
    }

    /// Replaces the list with `services`.
    func write(_ services: Set<SocialService>) throws {
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let names = services.map(\.rawValue).sorted().map { $0 + "\n" }.joined()
        try AtomicFile.write(Data((Self.header + names).utf8), to: file, permissions: 0o600)
    }

    /// Replaces the list with `services`; when that fails, removes it, so that the next reader
    /// asks the Secret Service instead of believing an old list.
    func replace(with services: Set<SocialService>) {
        do {
            try write(services)
        } catch {
            unlink(file.path)
        }
    }
}
