// An application of our own that shows the share window for items the window tests choose,
// as an app ported from iOS would: an ActivityViewController with the built-in activities,
// presented by the WindowPresenter. One of its items can be a provider that takes its time, so
// tests can watch provider progress and cancel it. Its suggestions are the ones the tests give
// (a JSON object each: id, activity, title, subtitle, icon, photo, presets), as an application
// with its own list of people would give them.
//
//   sheet-window-app [--slow-provider SECONDS] [--suggestion JSON]... [--text TEXT]... [FILE]...
//
// Prints the result object (SPEC §6) on standard output and exits 0 when the share completed,
// 130 when it was dismissed or cancelled, 1 otherwise.
//
// With SHEET_WINDOW_APP_RECORD=FILE the sheet also offers "Record Items", an application
// activity that writes what it received and the choices the person made in the window (SPEC
// §13) to FILE as JSON. With SHEET_WINDOW_APP_FAKE_SIZES=1 the controller's item preparer
// answers byte counts from the size alone (100 bytes a pixel of the long edge, 4000 for the
// original, 1000 fewer without the location), so the window's byte count can be tested before
// a real preparer is installed.
import Foundation
import MainLoop
import ShareSheet
import ShareSheetBuiltins
import ShareSheetGTK
import Sharing

GLibMainLoop.run {
    let arguments = Array(CommandLine.arguments.dropFirst())
    var items: [Any] = []
    var suggestions: [[String: Any]] = []
    var index = 0
    while index < arguments.count {
        let argument = arguments[index]
        index += 1
        switch argument {
        case "--text" where index < arguments.count:
            items.append(arguments[index])
            index += 1
        case "--suggestion" where index < arguments.count:
            let object = try? JSONSerialization.jsonObject(with: Data(arguments[index].utf8)) as? [String: Any]
            index += 1
            guard let object else {
                FileHandle.standardError.write(Data("sheet-window-app: --suggestion takes a JSON object\n".utf8))
                return 64
            }
            suggestions.append(object)
        case "--slow-provider" where index < arguments.count:
            let seconds = Double(arguments[index]) ?? 2
            index += 1
            items.append(SlowReport.provider(taking: seconds))
        default:
            items.append(URL(fileURLWithPath: argument))
        }
    }
    guard !items.isEmpty else {
        FileHandle.standardError.write(Data("sheet-window-app: nothing to share\n".utf8))
        return 64
    }
    let host = ShareHost(environment: HostEnvironment(variables: ProcessInfo.processInfo.environment))
    let registry = host.registry
    let given = GivenSuggestions(suggestions.compactMap { GivenSuggestions.suggestion($0, names: host.names) })
    let environment = ProcessInfo.processInfo.environment
    let makeController = { @MainActor (asked: [(key: String, value: String)]) -> ActivityViewController in
        let recorder = environment["SHEET_WINDOW_APP_RECORD"].map { RecordItemsActivity(file: URL(fileURLWithPath: $0)) }
        let controller = ActivityViewController(
            activityItems: items, applicationActivities: recorder.map { [$0] }, registry: registry)
        recorder?.controller = controller
        if environment["SHEET_WINDOW_APP_FAKE_SIZES"] == "1" { controller.itemPreparer = SizeOnlyPreparer() }
        controller.presetValues = SharePresets(settings: asked).values
        controller.suggestionSource = given
        return controller
    }
    // One share session, as the command and the service run theirs: a receiver's PIN is asked
    // in the window, and Cancel keeps what was finished.
    let presenter = WindowPresenter(names: host.names)
    presenter.sendsWaiting = host.sendWaiting
    let session = ShareSession(host: host, first: makeController([]), remake: makeController)
    guard let ending = try? await session.run(with: WindowFrontEnd(presenter: presenter)) else { return 70 }
    if let failure = presenter.failedToOpen {
        FileHandle.standardError.write(Data("sheet-window-app: \(failure)\n".utf8))
        return 69
    }
    await presenter.waitUntilClosed()
    await ending.controller.waitForProvidersToStop()
    let result = session.result(of: ending, interfaceCancelled: presenter.interfaceWasCancelled)
        .sentAfterWaiting(at: presenter.sentWaiting)
    print(result.json)
    if result.completed { return 0 }
    return result.disposition == .cancelled ? 130 : 1
}

/// A report written by a provider in small steps, with progress, for as long as it is asked to.
enum SlowReport {
    static func provider(taking seconds: Double) -> FileProvider {
        FileProvider(filename: "slow-report.txt") { url, progress in
            let steps = max(1, Int(seconds * 10))
            progress.totalUnitCount = Int64(steps)
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            for step in 1...steps {
                try await Task.sleep(for: .milliseconds(100))
                try handle.write(contentsOf: Data("line \(step) of the slow report\n".utf8))
                progress.completedUnitCount = Int64(step)
            }
        }
    }
}

/// The suggestions the test gave, whatever the items: an application's own list of people.
@MainActor
final class GivenSuggestions: SuggestionSource {
    let all: [ActivitySuggestion]

    init(_ all: [ActivitySuggestion]) { self.all = all }

    func suggestions(for kinds: [ItemKind], offered: [Activity]) -> [ActivitySuggestion] { all }

    /// A suggestion from its JSON object; the activity is named as `share --activity` names it.
    static func suggestion(_ object: [String: Any], names: ActivityNames) -> ActivitySuggestion? {
        guard let id = object["id"] as? String, let activity = object["activity"] as? String,
            let type = try? names.type(named: activity), let title = object["title"] as? String
        else { return nil }
        return ActivitySuggestion(
            id: id, activityType: type, title: title, subtitle: object["subtitle"] as? String ?? "",
            iconName: object["icon"] as? String ?? "avatar-default", photoPath: object["photo"] as? String,
            presets: object["presets"] as? [String: String] ?? [:])
    }
}

/// Writes what it received, and the choices the person made in the window, to a file: a test
/// reads it to see what an activity got.
@MainActor
final class RecordItemsActivity: Activity {
    let file: URL
    weak var controller: ActivityViewController?
    private var received: [Any] = []

    init(file: URL) {
        self.file = file
        super.init()
    }

    override var activityType: ActivityType? { ActivityType("org.sharesheet.test.record-items") }
    override var activityTitle: String? { "Record Items" }
    override func canPerform(withActivityItems activityItems: [Any]) -> Bool { !activityItems.isEmpty }
    override func prepare(withActivityItems activityItems: [Any]) { received = activityItems }

    override func perform() {
        let items = received.map { item -> String in
            if let url = item as? URL { return url.lastPathComponent }
            return item as? String ?? String(describing: item)
        }
        let choices = controller?.itemChoices ?? ItemChoices()
        let record: [String: Any] = [
            "items": items,
            "choices": [
                "leftOut": choices.leftOut.sorted(),
                "imageSize": choices.imageSize?.rawValue ?? NSNull(),
                "keepsLocation": choices.keepsLocation.map { $0 as Any } ?? NSNull(),
                "editedTexts": Dictionary(uniqueKeysWithValues: choices.editedTexts.map { (String($0.key), $0.value) }),
            ],
        ]
        do {
            let data = try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
            try data.write(to: file, options: .atomic)
            activityDidFinish(true)
        } catch {
            activityDidFail(error)
        }
    }
}

/// A preparer that knows sizes without reading any photo: 100 bytes a pixel of the long edge
/// (4000 pixels for the original), 1000 fewer when the location is removed. It changes nothing.
@MainActor
final class SizeOnlyPreparer: ItemPreparing {
    func needsPreparing(_ items: [Any], for activity: Activity, choices: ItemChoices) -> Bool { false }

    func prepare(_ items: [Any], for activity: Activity, choices: ItemChoices) async throws -> [Any] { items }

    func byteCount(of items: [Any], at size: ImageSize, removingLocation: Bool) async -> Int? {
        let photos = items.filter { ItemKind.of($0).isImage }.count
        guard photos > 0 else { return nil }
        return photos * ((size.longEdge ?? 4000) * 100 - (removingLocation ? 1000 : 0))
    }

    func finish(keepingCopies: Bool) {}
}
