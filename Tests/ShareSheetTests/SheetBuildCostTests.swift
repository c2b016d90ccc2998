import Foundation
import ShareSheet
import ShareSheetTesting
import Testing
import UniformTypes

/// A built-in whose answer an override decides, not its descriptor's acceptance.
final class AnsweringBuiltIn: BuiltInActivity {
    let answer: Bool
    private(set) var asked = 0

    init(descriptor: BuiltInActivityDescriptor, answer: Bool) {
        self.answer = answer
        super.init(descriptor: descriptor)
    }

    override func canPerform(withItemKinds kinds: [ItemKind]) -> Bool {
        asked += 1
        return answer
    }
}

@MainActor
@Suite("The cheap sheet build (issue #11) keeps what the sheet offers and says")
struct SheetBuildCostTests {
    @Test("URLs sort into the same kinds through the fast paths", arguments: [
        ("https://example.org/a", ItemKind.webURL),
        ("http://example.org/a", .webURL),
        ("HTTPS://EXAMPLE.ORG/a", .webURL),
        ("Http://example.org/a", .webURL),
        ("mailto:someone@example.com", .schemeURL("mailto")),
        ("SMS:+15551234567", .schemeURL("sms")),
        ("file:///nonexistent/photo.jpg", .fileURL(.jpeg)),
        ("FILE:///nonexistent/notes.txt", .fileURL(.plainText)),
    ])
    func urlKinds(string: String, kind: ItemKind) throws {
        let url = try #require(URL(string: string))
        #expect(ItemKind.of(url) == kind)
        #expect(ItemKind.of(url as Any) == kind)
    }

    @Test("sources are told from values by their type: providers and sources give placeholders, values stay values")
    func sourcesAmongValues() {
        let provider = ActivityItemProvider(placeholderItem: Samples.imageFile)
        let source = RecordingItemSource(name: "text", placeholder: Samples.string, log: CallLog()) { _ in Samples.string }
        let items: [Any] = [Samples.webURL, "text", provider, Samples.pdfFile, source, NSString(string: "bridged")]
        let controller = ActivityViewController(activityItems: items, applicationActivities: nil, registry: ActivityRegistry())
        #expect(controller.sheet.itemKinds == [.webURL, .string, .fileURL(.jpeg), .fileURL(.pdf), .string, .string])
    }

    @Test("a built-in not offered gets its own answer and reason; an override of the kinds check still decides")
    func unavailableReasonsPerActivity() throws {
        let registry = ActivityRegistry()
        let readingList = try #require(registry.descriptor(for: .addToReadingList))
        let print = try #require(registry.descriptor(for: .print))
        var yes: AnsweringBuiltIn?
        var no: AnsweringBuiltIn?
        // Reading List would not take these items, but its override says yes; Print would, but says no.
        registry.install(.addToReadingList) {
            let made = AnsweringBuiltIn(descriptor: readingList, answer: true)
            yes = made
            return made
        }
        registry.install(.print) {
            let made = AnsweringBuiltIn(descriptor: print, answer: false)
            no = made
            return made
        }
        // Plain built-ins on either side: Copy takes the text, Assign to Contact and Save to Photos do not.
        registry.install(.copyToPasteboard) {
            BuiltInActivity(descriptor: registry.descriptor(for: .copyToPasteboard)!)
        }
        registry.install(.assignToContact) { BuiltInActivity(descriptor: registry.descriptor(for: .assignToContact)!) }
        registry.install(.saveToCameraRoll) {
            BuiltInActivity(descriptor: registry.descriptor(for: .saveToCameraRoll)!)
        }
        let controller = ActivityViewController(
            activityItems: ["a", Samples.textFile, "b"], applicationActivities: nil, registry: registry)
        let sheet = controller.sheet
        let offered = sheet.activities.compactMap(\.activityType)
        #expect(Set(offered) == [.addToReadingList, .copyToPasteboard])
        let reasons = Dictionary(
            sheet.unavailable.compactMap { entry in entry.activity.activityType.map { ($0, entry.reason) } },
            uniquingKeysWith: { first, _ in first })
        #expect(reasons[.print] == "it takes \(print.acceptance.summary), and got text, text file (public.plain-text)")
        #expect(reasons[.assignToContact] == "it takes images only, and got text, text file (public.plain-text)")
        #expect(reasons[.saveToCameraRoll] == "it takes images, image or video files only, and got text, text file (public.plain-text)")
        // Every asking reaches the override: the sheet's memo is only behind the default answer.
        #expect((yes?.asked ?? 0) >= 1)
        #expect((no?.asked ?? 0) >= 2)
    }

    @Test("an activity reads the process's environment only when nothing gave it one")
    func hostEnvironmentDefault() {
        let unset = Activity()
        #expect(unset.hostEnvironment == .process)
        let given = HostEnvironment(variables: ["HOME": "/nonexistent/home"])
        let set = Activity()
        set.hostEnvironment = given
        #expect(set.hostEnvironment == given)
        let registry = ActivityRegistry(environment: given)
        #expect(registry.makeActivities().allSatisfy { $0.hostEnvironment == given })
    }
}
