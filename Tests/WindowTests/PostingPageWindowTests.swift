// Posting's page in the window (SPEC §7): the account the post goes out as, the text with a
// count that goes down from the service's limit as the person types, and the picture that goes
// with it; Ctrl+Enter posts to a loopback Mastodon-API server (mastodon-mock).
import Foundation
import LocalTestSupport
import Testing

@Suite("Posting's page in the window", .serialized)
struct PostingPageWindowTests {
    @Test("typed at the end of the text, Ctrl+Enter posts the text and the picture to a loopback Mastodon-API server")
    func postsToTheServer() async throws {
        try await WindowDesk.with { desk in
            let server = try await MastodonMock()
            defer { server.stop() }
            try desk.configure("[mastodon]\ninstance=\(server.baseURL.absoluteString)\n")
            let (_, photo) = try desk.notesAndPhoto()
            let window = try desk.startShare(
                ["--text", "Sunset", photo.path], extra: ["SHARESHEET_TOKEN_MASTODON": MastodonMock.token])
            try await window.driver.click(name: "Mastodon", role: "push button")
            try await window.driver.wait(name: "494 characters left", role: "label")
            try await window.driver.key("Control_L+End")
            try await window.driver.type(" by the river")
            try await window.driver.wait(name: "481 characters left", role: "label")
            try await window.driver.key("Control_L+Return")
            let run = try await window.finish()
            #expect(run.status == 0, "share: \(run.standardError)")
            let status = try #require(try await server.statuses().first, "nothing was posted")
            #expect((status["content"] as? String)?.contains("Sunset by the river") == true, "\(status)")
            #expect((status["media_attachments"] as? [Any])?.count == 1, "\(status)")
        }
    }

    @Test("Mastodon's page shows the account, the picture and a count down from 500; over the limit the count says so and Post is disabled")
    func accountCounterAndPicture() async throws {
        try await WindowDesk.with { desk in
            // An account (its token in the environment) on a loopback instance nobody answers:
            // the page is drawn and nothing is posted, so any token does.
            try desk.configure("[mastodon]\ninstance=http://127.0.0.1:9\n")
            let (_, photo) = try desk.notesAndPhoto()
            let window = try desk.startShare(
                ["--text", "Sunset", photo.path], extra: ["SHARESHEET_TOKEN_MASTODON": "any-token"])
            try await window.driver.click(name: "Mastodon", role: "push button")
            try await window.driver.wait(name: "Account", role: "label")
            try await window.driver.wait(name: "Mastodon on 127.0.0.1", role: "label")
            try await window.driver.wait(name: "494 characters left", role: "label")
            try await window.driver.wait(name: "photo.png", role: "label")
            try await window.driver.wait(name: "Picture of photo.png")
            try await desk.saveScreenshot("posting-page.png", of: window)

            // Typed at the end of the text: the count follows each key.
            try await window.driver.key("Control_L+End")
            try await window.driver.type(" at six")
            try await window.driver.wait(name: "487 characters left", role: "label")
            #expect(try await !window.isDisabled("Post"))

            try await window.driver.fill(name: "Text", text: String(repeating: "a", count: 510), role: "text")
            try await window.driver.wait(name: "10 characters too many", role: "label")
            #expect(try await window.isDisabled("Post"))
            try await desk.saveScreenshot("posting-page-over.png", of: window)
            let names = (try JSONSerialization.jsonObject(with: Data(try await window.driver.dump().utf8)) as? [[String: Any]] ?? [])
                .compactMap { $0["name"] as? String }
            for name in names {
                #expect(!name.contains("--") && !name.contains("[mastodon]") && !name.contains("instance="), "plain words: \(name)")
            }
            try await window.driver.key("Escape")
            let run = try await window.finish()
            #expect(run.status == 130, "share: \(run.standardError)")
        }
    }
}
