import ShareServiceProtocol
import ShareSheet
import Sharing
import Testing

/// SPEC §11 on the wire: a structured failure's facts travel as `error-field`, `error-setting`,
/// `error-fix` and `error-path`; `error-hint` is the plain sentence, never the command's words.
@Suite("Error facts on the wire")
struct ErrorFactsWireTests {
    @Test("a failure's facts go out as keys, the hint in plain words, and come back the same")
    func roundTrip() throws {
        let result = ShareResult(
            activity: "airdrop", completed: false, disposition: .failed,
            error: .init(ShareError(.usage, "AirDrop: Desk asks for a PIN", field: "pin", fix: .givePin)))
        let wire = WireResponse(result)
        #expect(wire.response == WireResponse.failed)
        #expect(wire.results.errorField == "pin")
        #expect(wire.results.errorFix == "give-pin")
        #expect(wire.results.errorHint == "Enter the PIN the receiving device shows.")
        let back = ShareResult(try WireResponse(decoding: wire.encode()))
        #expect(back.error?.field == "pin")
        #expect(back.error?.fix == .givePin)
        #expect(back.error?.message == "AirDrop: Desk asks for a PIN")
    }

    @Test("a setting goes out as group.key, a path as error-path; nothing names an option or a key=")
    func setting() throws {
        let result = ShareResult(
            completed: false, disposition: .failed,
            error: .init(
                ShareError(
                    .unavailable, "Mail: no SMTP server is configured", setting: .init(group: "mail", "smtp"),
                    fix: .configureMailServer, path: "/home/me/.config/sharesheet/config")))
        let wire = WireResponse(result)
        #expect(wire.results.errorSetting == "mail.smtp")
        #expect(wire.results.errorPath == "/home/me/.config/sharesheet/config")
        let hint = try #require(wire.results.errorHint)
        #expect(!hint.contains("--") && !hint.contains("=") && !hint.contains("share "), "\(hint)")
        let back = ShareResult(try WireResponse(decoding: wire.encode()))
        #expect(back.error?.setting == ShareError.Setting(group: "mail", "smtp"))
        #expect(back.error?.path == "/home/me/.config/sharesheet/config")
    }
}

@Suite("What a cancel kept, on the wire")
struct KeptWireTests {
    @Test("a result with kept work goes through the Response and back unchanged")
    func keptRoundTrip() throws {
        var result = ShareResult(activityType: "com.apple.UIKit.activity.AirDrop", activity: "airdrop", completed: false)
        result.disposition = .cancelled
        result.error = ShareResult.Failure(code: .cancelled, message: "dismissed")
        result.kept = ShareResult.Kept(what: "small.txt (1 of 2)", location: "Desk Laptop")
        let wire = WireResponse(result)
        #expect(wire.response == WireResponse.dismissed)
        #expect(wire.results.kept == "small.txt (1 of 2)" && wire.results.keptLocation == "Desk Laptop")
        #expect(ShareResult(try WireResponse(decoding: wire.encode())) == result)
    }
}
