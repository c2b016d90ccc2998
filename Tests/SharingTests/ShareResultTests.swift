import Foundation
import ShareSheet
import ShareSheetTesting
import Testing

@testable import Sharing

@MainActor
@Suite struct ShareResultTests {
    private let host = ShareHost(registry: ActivityRegistry(environment: HostEnvironment(variables: [:])))

    @Test func aDismissalIsCancelled() {
        let result = host.result(of: .dismissed, activity: nil)
        #expect(result == .dismissed)
        #expect(result.disposition == .cancelled)
        #expect(result.error?.code == .cancelled)
    }

    @Test func aFallbackKeepsItsWordsDispositionAndLocation() {
        let activity = FakeActivity(type: .mail, title: "Mail")
        let fallback = ActivityFallback(message: "No mail server is set up.", hint: "set [mail] smtp=")
        let outcome = ShareOutcome(
            activityType: .mail, completed: true, returnedItems: [URL(fileURLWithPath: "/tmp/out/1.eml")], error: nil,
            disposition: .queued, location: "/tmp/out/1.eml", fallback: fallback)
        let result = host.result(of: outcome, activity: activity)
        #expect(result.activityType == "com.apple.UIKit.activity.Mail")
        #expect(result.activity == "mail")
        #expect(result.completed)
        #expect(result.disposition == .queued)
        #expect(result.location == "/tmp/out/1.eml")
        #expect(result.returnedItems == ["/tmp/out/1.eml"])
        #expect(result.fallback == fallback)
        #expect(result.error == nil)
    }

    @Test("a queued result whose waiting file was sent after all reads as sent; another location changes nothing")
    func sentAfterWaiting() {
        let activity = FakeActivity(type: .mail, title: "Mail")
        let outcome = ShareOutcome(
            activityType: .mail, completed: true, returnedItems: [URL(fileURLWithPath: "/tmp/out/1.eml")], error: nil,
            disposition: .queued, location: "/tmp/out/1.eml",
            fallback: ActivityFallback(message: "No mail server is set up.", setting: .init(group: "mail", "smtp"), fix: .flushOutbox))
        let queued = host.result(of: outcome, activity: activity)
        #expect(queued.sentAfterWaiting(at: nil) == queued)
        #expect(queued.sentAfterWaiting(at: "/tmp/out/2.eml") == queued)
        let sent = queued.sentAfterWaiting(at: "/tmp/out/1.eml")
        #expect(sent.disposition == .sent && sent.completed)
        #expect(sent.fallback == nil && sent.location == nil && sent.returnedItems.isEmpty)
        #expect(sent.activity == "mail")
    }

    @Test func anErrorIsAFailureUnlessTheWorkWasKept() {
        let activity = FakeActivity(type: .mail, title: "Mail")
        let failed = ShareOutcome(
            activityType: .mail, completed: false, returnedItems: nil,
            error: ShareError(.ioError, "Mail: the disk is full"))
        #expect(host.result(of: failed, activity: activity).disposition == .failed)
        #expect(host.result(of: failed, activity: activity).error == .init(code: .ioError, message: "Mail: the disk is full"))
        let kept = ShareOutcome(
            activityType: .mail, completed: false, returnedItems: nil,
            error: ShareError(.temporaryFailure, "Mail: server down", hint: "share outbox flush"), disposition: .queued)
        let result = host.result(of: kept, activity: activity)
        #expect(result.disposition == .queued)
        #expect(result.error?.hint == "share outbox flush")
        let other = ShareOutcome(activityType: .mail, completed: false, returnedItems: nil, error: CocoaError(.fileWriteUnknown))
        #expect(host.result(of: other, activity: activity).error?.code == .ioError)
        #expect(host.result(of: other, activity: activity).error?.message.hasPrefix("Mail: ") == true)
    }

    @Test func aCancelledInterfaceIsADismissal() {
        let outcome = ShareOutcome(activityType: .mail, completed: false, returnedItems: nil, error: nil)
        #expect(host.result(of: outcome, activity: nil, interfaceCancelled: true).disposition == .cancelled)
        #expect(host.result(of: outcome, activity: nil).disposition == .failed)
        #expect(host.result(of: outcome, activity: nil).error == nil)
    }

    @Test func jsonHasEveryKeySorted() throws {
        let result = ShareResult(
            activityType: "t", activity: "a", completed: true, disposition: .handedOff, location: "/x/y",
            returnedItems: ["r"])
        #expect(
            result.json
                == #"{"activity":"a","activityType":"t","completed":true,"disposition":"handed-off","error":null,"fallback":null,"kept":null,"location":"/x/y","returnedItems":["r"]}"#
        )
        let decoded = try JSONDecoder().decode(ShareResult.self, from: Data(result.json.utf8))
        #expect(decoded == result)
    }

    @Test func namesCoverEveryBuiltIn() throws {
        let names = host.names
        #expect(try names.type(named: "MAIL") == .mail)
        #expect(try names.type(named: "com.apple.UIKit.activity.Print") == .print)
        let unknown = #expect(throws: ShareError.self) { try names.type(named: "mial") }
        #expect(unknown?.message == "unknown activity 'mial' (did you mean 'mail'?)")
        for activity in host.registry.makeActivities() {
            let entry = names.entry(for: activity)
            #expect(!entry.iconName.isEmpty)
            #expect(entry.iconName != ActivityNames.fallbackIconName, "\(entry.name) has no icon of its own")
            #expect(entry.title == activity.activityTitle)
        }
    }

    @Test func presetsBecomeInterfaceValues() {
        let presets = SharePresets(to: ["ana@example.com", "bo@example.com"], subject: "Hi", settings: [(key: "cc", value: "cy@example.com")])
        #expect(presets.values["to"] == .text("ana@example.com,bo@example.com"))
        #expect(presets.values["subject"] == .text("Hi"))
        #expect(presets.values["cc"] == .text("cy@example.com"))
    }
}
