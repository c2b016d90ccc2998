import Testing

@testable import Mail

/// `share outbox list` shows the oldest first (a new user saw M373860 listed before M65406,
/// both queued in the same second: the names sorted as text).
@Suite("the outbox's order")
struct MaildirOrderTests {
    @Test func oldestFirstWithinOneSecond() {
        let names = [
            "1796411759.M373860P23779R60f84280.vm", "1796411759.M65406P23780R0a1b2c3d.vm", "1796411758.M999999P1R1.vm",
        ]
        #expect(names.sorted(by: MaildirOrder.precedes) == [
            "1796411758.M999999P1R1.vm", "1796411759.M65406P23780R0a1b2c3d.vm", "1796411759.M373860P23779R60f84280.vm",
        ])
    }

    @Test func textMessagesAndNamesWithoutATime() {
        let names = ["sms-1796411784.M571166P2R3.json", "sms-1796411784.M71166P2R3.json", "dropped-in.eml"]
        #expect(names.sorted(by: MaildirOrder.precedes) == [
            "sms-1796411784.M71166P2R3.json", "sms-1796411784.M571166P2R3.json", "dropped-in.eml",
        ])
    }
}
