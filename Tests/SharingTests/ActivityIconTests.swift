import Foundation
import ShareSheet
import Sharing
import Testing

/// The built-ins' icons as the installed Adwaita theme draws them (the window shows the
/// symbolic variant when the theme has one).
@Suite @MainActor struct ActivityIconTests {
    /// Adwaita's drawing of `name`: its scalable symbolic SVG, from whichever context folder
    /// holds it; nil when the theme lacks it.
    private func drawing(_ name: String) -> Data? {
        let theme = URL(fileURLWithPath: "/usr/share/icons/Adwaita/scalable")
        let contexts = (try? FileManager.default.contentsOfDirectory(atPath: theme.path)) ?? []
        return contexts.lazy.compactMap { try? Data(contentsOf: theme.appendingPathComponent("\($0)/\(name)-symbolic.svg")) }.first
    }

    @Test("Message and Mail side by side are told apart: a speech bubble and an envelope, both drawn by the theme")
    func messageAndMailDiffer() throws {
        let message = try #require(ActivityNames.iconNames[.message])
        let mail = try #require(ActivityNames.iconNames[.mail])
        // Every `mail-*` icon in Adwaita is an envelope: Message must not be one of them.
        #expect(!message.hasPrefix("mail-"), "Message is drawn as \(message)")
        let messageDrawing = try #require(drawing(message), "the theme has no \(message)")
        let mailDrawing = try #require(drawing(mail), "the theme has no \(mail)")
        #expect(messageDrawing != mailDrawing)
    }

    @Test("every built-in's freedesktop icon is in the installed theme (ours, sharesheet-*, ship in Resources)")
    func everyIconIsInTheTheme() {
        for (type, name) in ActivityNames.iconNames where !name.hasPrefix("sharesheet-") {
            #expect(drawing(name) != nil, "\(type.rawValue): \(name) is not in Adwaita")
        }
    }
}
