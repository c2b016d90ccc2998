import Foundation

/// Opens URLs and files with the desktop's own applications: the `UIApplication.open(_:)` and
/// IntentKit of ShareSheet.
///
/// A file goes to the applications registered for its type, any other URL to the handlers of
/// its scheme (`x-scheme-handler/mailto`). Apple-style maps links become `geo:` URIs, and maps
/// and `geo:` links fall back to a web map when no map application is installed.
public final class Workspace: Sendable {
    /// The workspace of the desktop this process runs on.
    public static let shared = Workspace(catalog: DesktopApplicationCatalog())

    /// Where applications are found and launched.
    public let catalog: any ApplicationCatalog

    /// Makes a workspace over a catalog (an in-memory one in tests).
    public init(catalog: any ApplicationCatalog) {
        self.catalog = catalog
    }

    /// How a URL would be opened: the URL handed over (after maps translation), its type, and
    /// why that route was taken.
    public struct Route: Sendable {
        /// The URL the application receives.
        public var url: URL
        /// The MIME type or `x-scheme-handler/SCHEME` whose applications were asked.
        public var contentType: String
        /// The applications, default first.
        public var applications: [Application]
        /// Why this route: "maps link as geo: URI", "web map: no application handles geo: links".
        public var note: String?
    }

    /// What `open(_:)` did.
    public struct Opened: Sendable {
        /// The URL the application received.
        public var url: URL
        /// The application that received it.
        public var application: Application
        /// How the URL was routed, when not directly.
        public var note: String?
    }

    // MARK: Types and candidates

    /// The MIME type of a file (by name, then content), or `x-scheme-handler/SCHEME` for a URL.
    public func contentType(for url: URL) -> String {
        if url.isFileURL { return Self.mimeType(ofFileAt: url) }
        return "x-scheme-handler/" + (url.scheme?.lowercased() ?? "")
    }

    /// The applications that can open `url`, default first, then recommended, then fallback.
    public func applications(for url: URL) -> [Application] {
        catalog.applications(forContentType: contentType(for: url))
    }

    /// The applications for a MIME type or `x-scheme-handler/SCHEME`, default first.
    public func applications(forContentType contentType: String) -> [Application] {
        catalog.applications(forContentType: contentType)
    }

    /// The default the person chose for the type (with "remember my choice", `xdg-mime default`
    /// or a file manager), or nil when none was chosen.
    public func chosenDefault(forContentType contentType: String) -> Application? {
        guard let first = applications(forContentType: contentType).first, first.role == .default else { return nil }
        return catalog.isChosenDefault(first, forContentType: contentType) ? first : nil
    }

    /// True when the application's desktop entry lists `contentType` itself (not only a
    /// broader type).
    public func isRegistered(_ application: Application, forContentType contentType: String) -> Bool {
        catalog.isRegistered(application, forContentType: contentType)
    }

    /// The installed application with this desktop-file id.
    public func application(withID id: String) -> Application? {
        catalog.application(withID: id.hasSuffix(".desktop") ? id : id + ".desktop")
    }

    /// Makes `application` the desktop default for `contentType`, so `xdg-open` and `gio open`
    /// follow it too.
    /// - Throws: `WorkspaceError` when the desktop's `mimeapps.list` cannot be written.
    public func setDefault(_ application: Application, forContentType contentType: String) throws {
        try catalog.setDefault(application, forContentType: contentType)
    }

    // MARK: Opening

    /// Where `open(_:)` would send `url`.
    /// - Throws: `WorkspaceError.noHandler` naming the scheme or type when nothing handles it,
    ///   `.missingFile` for a file that is not there.
    public func route(_ url: URL) throws -> Route {
        if url.isFileURL {
            guard FileManager.default.isReadableFile(atPath: url.path) else {
                throw WorkspaceError(.missingFile, "\(url.path): no such file or not readable")
            }
            let type = contentType(for: url)
            let candidates = applications(forContentType: type)
            guard !candidates.isEmpty else {
                throw WorkspaceError(.noHandler, "\(url.lastPathComponent): no application opens \(type) files")
            }
            return Route(url: url, contentType: type, applications: candidates)
        }
        let scheme = url.scheme?.lowercased() ?? ""
        if let maps = MapsLink(url) {
            let geo = scheme == "geo" ? url : maps.geoURL
            let geoApplications = applications(forContentType: "x-scheme-handler/geo")
            if !geoApplications.isEmpty {
                let note = scheme == "geo" ? nil : "\(scheme): link as a geo: URI"
                return Route(url: geo, contentType: "x-scheme-handler/geo", applications: geoApplications, note: note)
            }
            if MapsLink.isAppleMaps(url), scheme != "maps" {
                // Apple's web maps are a web page already; the browser can have them.
                let web = applications(forContentType: "x-scheme-handler/" + scheme)
                if !web.isEmpty {
                    return Route(url: url, contentType: "x-scheme-handler/" + scheme, applications: web)
                }
            }
            let web = applications(forContentType: "x-scheme-handler/https")
            if !web.isEmpty {
                return Route(
                    url: maps.webURL, contentType: "x-scheme-handler/https", applications: web,
                    note: "web map: no application handles geo: links")
            }
            throw WorkspaceError(.noHandler, "\(scheme): no application handles geo: links, and none opens web pages")
        }
        let type = "x-scheme-handler/" + scheme
        let candidates = applications(forContentType: type)
        guard !candidates.isEmpty else {
            throw WorkspaceError(.noHandler, "\(scheme): no application handles \(scheme): links")
        }
        return Route(url: url, contentType: type, applications: candidates)
    }

    /// Opens `url` with its default application: a file by its type, a link by its scheme.
    ///
    /// `maps:` links go to the `geo:` handler, or to OpenStreetMap in the browser when there is
    /// none; so do `geo:` links.
    /// - Returns: the URL handed over and the application that received it.
    /// - Throws: `WorkspaceError` naming the scheme or type when nothing handles it, or the
    ///   application and the reason when it does not start.
    @discardableResult
    public func open(_ url: URL) throws -> Opened {
        let route = try route(url)
        let application = route.applications[0]
        try catalog.launch(application, urls: [route.url])
        return Opened(url: route.url, application: application, note: route.note)
    }

    /// Opens `urls` with the application whose desktop-file id is `id`.
    /// - Throws: `WorkspaceError.noSuchApplication` when it is not installed, or the reason it
    ///   did not start.
    @discardableResult
    public func open(_ urls: [URL], withApplicationID id: String) throws -> Application {
        guard let application = application(withID: id) else {
            throw WorkspaceError(.noSuchApplication, "\(id): no such application is installed")
        }
        try open(urls, with: application)
        return application
    }

    /// Opens `urls` with `application`, each URL one argument, never through a shell.
    /// - Throws: `WorkspaceError` with the application's name and the reason it did not start.
    public func open(_ urls: [URL], with application: Application) throws {
        for url in urls where url.isFileURL && !FileManager.default.isReadableFile(atPath: url.path) {
            throw WorkspaceError(.missingFile, "\(url.path): no such file or not readable")
        }
        try catalog.launch(application, urls: urls)
    }

    // MARK: Helpers

    /// A file's MIME type from its name, then its first bytes when the name says nothing.
    static func mimeType(ofFileAt url: URL) -> String {
        let name = url.lastPathComponent
        let byName = GIOApplications.mimeType(ofFileNamed: name, head: nil)
        if byName != "application/octet-stream", !url.pathExtension.isEmpty { return byName }
        let head = (try? FileHandle(forReadingFrom: url)).flatMap { handle -> Data? in
            defer { try? handle.close() }
            return try? handle.read(upToCount: 4096)
        }
        return GIOApplications.mimeType(ofFileNamed: name, head: head)
    }

    /// The MIME type of some bytes named `filename`.
    static func mimeType(ofData data: Data, filename: String) -> String {
        GIOApplications.mimeType(ofFileNamed: filename, head: data.prefix(4096))
    }
}
