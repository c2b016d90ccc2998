import Foundation
import ShareSheet
import ShareSheetTerminal
import ShareSheetTesting
import Testing

/// The terminal sheet's steps that change what is sent (SPEC §13), typed at the pick prompt.
@MainActor
@Suite("TerminalPresenter: items, size, location and edit")
struct TerminalChoiceStepsTests {
    let backends = InMemoryBackends()
    let registry = ActivityRegistry()
    let screen = TextBuffer()

    init() {
        backends.install(into: registry)
    }

    private func run(
        _ items: [Any], typing lines: [String], editor: ExternalEditor? = nil
    ) async -> (ShareOutcome, ActivityViewController) {
        let controller = ActivityViewController(activityItems: items, applicationActivities: [], registry: registry)
        let presenter = TerminalPresenter(input: ScriptedLines(lines, echo: screen), output: screen, style: .plain, editor: editor)
        controller.present(with: presenter)
        return (await controller.waitForCompletion(), controller)
    }

    @Test("items, then 1,3: the sheet marks the second left out, and Copy receives the first and the third")
    func leaveOneOut() async {
        let (outcome, controller) = await run(["first", "second", "third"], typing: ["items", "1,3", "copy"])
        #expect(outcome.activityType == .copyToPasteboard && outcome.completed)
        #expect(backends.received[.copyToPasteboard]?.first?.compactMap { $0 as? String } == ["first", "third"])
        #expect(controller.itemChoices.leftOut == [1])
        #expect(screen.text.contains("\"second\"  left out"), "\(screen.text)")
        #expect(screen.text.contains("2 of 3 items go."), "\(screen.text)")
    }

    @Test("items with a number that is not an item says so and asks again")
    func wrongNumberAskedAgain() async {
        let (outcome, _) = await run(["first", "second"], typing: ["items", "5", "2", "copy"])
        #expect(outcome.completed)
        #expect(screen.text.contains("there is no item 5: 2 items were given"), "\(screen.text)")
        #expect(backends.received[.copyToPasteboard]?.first?.compactMap { $0 as? String } == ["second"])
    }

    @Test("edit opens the text in $EDITOR; the activity receives the edited text")
    func editInEditor() async throws {
        let editor = try #require(ExternalEditor(environment: ["EDITOR": "sed -i s/Q3/Q4/", "TMPDIR": NSTemporaryDirectory()]))
        let (outcome, controller) = await run(["Numbers for Q3"], typing: ["edit", "copy"], editor: editor)
        #expect(outcome.completed)
        #expect(backends.received[.copyToPasteboard]?.first?.compactMap { $0 as? String } == ["Numbers for Q4"])
        #expect(controller.itemChoices.editedTexts == [0: "Numbers for Q4"])
    }

    @Test("edit without an editor takes the new text line by line")
    func editByLines() async {
        let (outcome, _) = await run(["old words"], typing: ["edit", "new words", "on two lines", ".", "copy"])
        #expect(outcome.completed)
        #expect(backends.received[.copyToPasteboard]?.first?.compactMap { $0 as? String } == ["new words\non two lines"])
    }

    @Test("a photo offers size and location; location then size small set the choices the activity runs with")
    func photoSteps() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("choice-steps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("photo.png")
        try Data(base64Encoded: Self.onePixelPNG)!.write(to: photo)
        let (outcome, controller) = await run([photo], typing: ["location", "size", "small", "copy"])
        #expect(outcome.completed)
        #expect(controller.itemChoices.keepsLocation == true)
        #expect(controller.itemChoices.imageSize == .small)
        #expect(screen.text.contains("To change what is sent, type size or location."), "\(screen.text)")
        #expect(screen.text.contains("Location and camera serial now go with photos that leave this computer."))
        #expect(screen.text.contains("Photos go at small size."), "\(screen.text)")
    }

    static let onePixelPNG =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
}
