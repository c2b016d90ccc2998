import Foundation
import OpenIn
import ShareSheet
import Testing

/// A catalog in memory: applications by type, launches recorded, defaults set in a dictionary.
final class MemoryCatalog: ApplicationCatalog, @unchecked Sendable {
    private let lock = NSLock()
    private var byType: [String: [Application]]
    private var defaults: [String: String] = [:]
    private var launchLog: [(String, [URL])] = []

    /// What was started, in order (read under the lock: launches happen off the main actor).
    var launches: [(String, [URL])] { lock.withLock { launchLog } }

    init(_ byType: [String: [Application]]) { self.byType = byType }

    func applications(forContentType contentType: String) -> [Application] {
        lock.withLock {
            var list = byType[contentType] ?? []
            if let id = defaults[contentType], let index = list.firstIndex(where: { $0.id == id }) {
                var chosen = list.remove(at: index)
                chosen.role = .default
                list.insert(chosen, at: 0)
                if list.count > 1, list[1].role == .default { list[1].role = .recommended }
            }
            return list
        }
    }

    func isChosenDefault(_ application: Application, forContentType contentType: String) -> Bool {
        lock.withLock { defaults[contentType] == application.id }
    }

    func isRegistered(_ application: Application, forContentType contentType: String) -> Bool { true }

    func application(withID id: String) -> Application? {
        lock.withLock { byType.values.joined().first { $0.id == id } }
    }

    func launch(_ application: Application, urls: [URL]) throws {
        lock.withLock { launchLog.append((application.id, urls)) }
    }

    func setDefault(_ application: Application, forContentType contentType: String) throws {
        lock.withLock { defaults[contentType] = application.id }
    }
}

@Suite("Open In without a desktop: routing rules and the activity's question")
@MainActor
struct OpenInUnitTests {
    static func app(_ id: String, _ role: Application.Role) -> Application {
        Application(id: id + ".desktop", name: id.capitalized, iconName: id + "-icon", executable: id, role: role)
    }

    func url(_ text: String) -> URL { URL(string: text)! }

    @Test("Apple-style maps links become geo: URIs and OpenStreetMap pages")
    func mapsTranslation() throws {
        let search = try #require(MapsLink(url("maps:?q=Brandenburger+Tor")))
        #expect(search.geoURL.absoluteString == "geo:0,0?q=Brandenburger%20Tor")
        #expect(search.webURL.absoluteString == "https://www.openstreetmap.org/search?query=Brandenburger%20Tor")
        let point = try #require(MapsLink(url("https://maps.apple.com/?ll=52.5163,13.3777&z=12")))
        #expect(point.geoURL.absoluteString == "geo:52.5163,13.3777?z=12")
        #expect(point.webURL.absoluteString == "https://www.openstreetmap.org/?mlat=52.5163&mlon=13.3777#map=12/52.5163/13.3777")
        let geo = try #require(MapsLink(url("geo:0,0?q=Alexanderplatz%20Berlin")))
        #expect(geo.query == "Alexanderplatz Berlin" && geo.coordinate == nil)
        #expect(MapsLink(url("maps:")) == nil)
        #expect(MapsLink(url("https://example.com/?q=x")) == nil)
        #expect(MapsLink(url("geo:91,0")) == nil)
    }

    @Test("several applications: the question lists them default first with icons; submitting opens and remembers")
    func questionAndRemember() async throws {
        let catalog = MemoryCatalog([
            "x-scheme-handler/https": [Self.app("firefox", .default), Self.app("chromium", .recommended), Self.app("lynx", .fallback)]
        ])
        let workspace = Workspace(catalog: catalog)
        let activity = OpenInActivity(workspace: workspace)
        let link = try #require(URL(string: "https://example.com/"))
        #expect(activity.canPerform(withActivityItems: ["text", link]))
        activity.prepare(withActivityItems: [link])
        let interface = try #require(activity.activityInterface)
        #expect(interface.fields.map(\.id) == ["app", "remember"])
        guard case .choice(let options) = interface.fields[0].kind else {
            Issue.record("the first field is not a choice")
            return
        }
        #expect(options.current.map(\.id) == ["firefox.desktop", "chromium.desktop", "lynx.desktop"])
        #expect(options.current.map(\.iconName) == ["firefox-icon", "chromium-icon", "lynx-icon"])
        #expect(options.current.map(\.detail) == ["default", "recommended", "fallback"])
        interface.onSubmit(["app": .choice("chromium.desktop"), "remember": .bool(true)])
        for _ in 0..<500 where catalog.launches.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(catalog.launches.map(\.0) == ["chromium.desktop"])
        #expect(catalog.launches.first?.1 == [link])
        #expect(workspace.chosenDefault(forContentType: "x-scheme-handler/https")?.id == "chromium.desktop")

        // Next time nobody is asked.
        let next = OpenInActivity(workspace: workspace)
        next.prepare(withActivityItems: [link])
        #expect(next.activityInterface == nil)
    }

    @Test("one application, or none: no question, or not offered with the reason")
    func oneOrNone() throws {
        let catalog = MemoryCatalog(["x-scheme-handler/tel": [Self.app("dialer", .default)]])
        let workspace = Workspace(catalog: catalog)
        let activity = OpenInActivity(workspace: workspace)
        let tel = try #require(URL(string: "tel:+15551234567"))
        activity.prepare(withActivityItems: [tel])
        #expect(activity.activityInterface == nil)
        let sms = try #require(URL(string: "sms:+15551234567"))
        #expect(!activity.canPerform(withActivityItems: [sms]))
        #expect(activity.unavailableReason(forActivityItems: [sms]) == "no application on this desktop opens x-scheme-handler/sms")
        #expect(!activity.canPerform(withActivityItems: ["just text"]))
        #expect(throws: WorkspaceError.self) { try workspace.open(sms) }
    }
}
