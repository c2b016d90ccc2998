import DBus
import Foundation
import GLibErrors
import ShareHistory
import ShareServiceProtocol
import ShareSheet
import ShareSheetGTK
import Sharing

/// One `Share` call in progress: its request object on the bus, its controller and presenter,
/// the descriptors it received. It ends exactly once — with the share's result, a Close from
/// its caller, or the caller leaving the bus — and then emits `Response` to its caller alone,
/// unexports its object and closes its descriptors.
@MainActor
final class ServiceRequest {
    let path: String
    let sender: String
    private let connection: DBusConnection
    private let host: ShareHost
    private let call: ServiceCall
    private let onEnd: (ServiceRequest) -> Void
    /// Says a line on the service's standard error (a history that could not be written).
    private let warn: (String) -> Void
    private var registration: DBusRegistration?
    private var senderWatch: DBusNameWatch?
    private var session: ShareSession?
    private var windowPresenter: WindowPresenter?
    private let settingsExtras: @MainActor (HostEnvironment) -> SettingsExtras
    private var ended = false

    init(
        path: String, sender: String, connection: DBusConnection, host: ShareHost, call: ServiceCall,
        warn: @escaping (String) -> Void = { _ in },
        settingsExtras: @escaping @MainActor (HostEnvironment) -> SettingsExtras = { _ in SettingsExtras() },
        onEnd: @escaping (ServiceRequest) -> Void
    ) {
        self.settingsExtras = settingsExtras
        self.path = path
        self.sender = sender
        self.connection = connection
        self.host = host
        self.call = call
        self.onEnd = onEnd
        self.warn = warn
    }

    /// The window for this call, as both kinds of interactive call open it: the caller's
    /// settings and extras behind Settings…, its outbox, its parent window and whether items
    /// can be left out; kept as `windowPresenter`.
    private func makeWindowPresenter() -> WindowPresenter {
        let presenter = WindowPresenter(names: host.names)
        presenter.settingsFile = host.environment.directories.configurationFile
        presenter.settingsExtras = settingsExtras(host.environment)
        presenter.sendsWaiting = host.sendWaiting
        presenter.parentWindow = call.parentWindow.isEmpty ? nil : call.parentWindow
        presenter.letsItemsBeLeftOut = call.choosesItems
        windowPresenter = presenter
        return presenter
    }

    /// Exports the request object and watches the caller; false when the path is taken.
    /// Both hold the request weakly: GDBus calls back on the main thread, the main actor's.
    func export(interface: DBusInterface) -> Bool {
        do throws(GLibError) {
            registration = try connection.register(
                path: path, interface: interface,
                methodCall: { [weak self] invocation in MainActor.assumeIsolated { Self.answer(invocation, for: self) } })
        } catch {
            return false
        }
        senderWatch = connection.watch(
            name: sender, vanished: { [weak self] in MainActor.assumeIsolated { self?.callerVanished() } })
        return true
    }

    /// A call on the request object: `Close`, and only from the caller that made the request.
    private static func answer(_ invocation: DBusMethodInvocation, for request: ServiceRequest?) {
        guard let request else {
            return invocation.returnError(DBusErrorName.unknownObject, "this request has ended")
        }
        guard invocation.sender == request.sender else {
            return invocation.returnError(DBusErrorName.accessDenied, "only the caller that made this request may close it")
        }
        guard invocation.method == "Close" else {
            return invocation.returnError(DBusErrorName.unknownMethod, "no method \(invocation.method)")
        }
        invocation.returnValue()
        request.close()
    }

    /// Starts the share; call after the `Share` reply is sent.
    func start() {
        // The caller may have gone, or closed, before the request started.
        guard !ended else { return }
        do {
            let host = self.host
            let call = self.call
            let controller = try host.controller(
                for: call.items, presets: call.presets, excluding: call.exclusions,
                applicationActivities: call.customActions, choices: call.choices)
            // A run again with a person's answer (a receiver's PIN) gets the same items and more presets.
            let session = ShareSession(host: host, first: controller) { asked in
                var presets = call.presets
                presets.settings += asked
                return try host.controller(
                    for: call.items, presets: presets, excluding: call.exclusions, applicationActivities: call.customActions)
            }
            self.session = session
            if let id = call.suggestion {
                return try start(session, picking: try suggestion(id, on: controller))
            }
            var pick: ActivityType?
            if let name = call.activity {
                let type = try activityType(named: name)
                if let why = host.unavailability(type, on: controller.sheet) {
                    return finish(
                        failure: ShareError(
                            .unavailable, "\(name) is not available: \(why.reason)", setting: why.setting, fix: why.fix,
                            path: why.path))
                }
                pick = type
                if !call.interactive {
                    // Nobody to ask: a need ends the share with `error-field` naming it.
                    return run(session, with: ScriptedFrontEnd(), picking: type, presenter: nil)
                }
            } else if !call.interactive {
                return finish(failure: ShareError(.usage, "a share that is not interactive needs an activity: there is no one to ask"))
            }
            try WindowPresenter.connectToDisplay()
            let presenter = makeWindowPresenter()
            presenter.preselected = pick
            run(session, with: WindowFrontEnd(presenter: presenter), picking: nil, presenter: presenter)
        } catch {
            finish(failure: error)
        }
    }

    /// The suggestion of the `suggestion` option, among those the sheet makes for these items.
    /// - Throws: `ShareError` with `field` "suggestion" when the sheet does not suggest it, or
    ///   when the `activity` option names another activity than the suggestion's.
    private func suggestion(_ id: String, on controller: ActivityViewController) throws -> ActivitySuggestion {
        let suggestion = try host.suggestion(id, on: controller)
        if let name = call.activity, try activityType(named: name) != suggestion.activityType {
            throw ShareError(
                .usage, "'\(id)' is a suggestion for \(host.names.name(of: suggestion.activityType)), not \(name)",
                field: "suggestion")
        }
        return suggestion
    }

    /// Runs the share with `suggestion` picked instead of the sheet: its activity with its
    /// presets, sent at once when they answer all its form would ask. Otherwise the form shows
    /// filled in the window, or, with `interactive` false, goes as the presets fill it, as with
    /// the `activity` option (Mail with only `to`: an empty subject and body).
    private func start(_ session: ShareSession, picking suggestion: ActivitySuggestion) throws {
        guard call.interactive else {
            let frontEnd = SuggestionFrontEnd(picking: suggestion, in: ScriptedFrontEnd(), showsSheetFirst: false)
            return run(session, with: frontEnd, picking: nil, presenter: nil)
        }
        try WindowPresenter.connectToDisplay()
        let presenter = makeWindowPresenter()
        // The window opens on the sheet, and the pick follows at once (a form, or the work).
        let frontEnd = SuggestionFrontEnd(picking: suggestion, in: WindowFrontEnd(presenter: presenter), showsSheetFirst: true)
        run(session, with: frontEnd, picking: nil, presenter: presenter)
    }

    /// The caller's `Close`: cancel as a person does (finished work is kept and said in the
    /// Response), and take the window away.
    func close() {
        guard !ended else { return }
        let presenter = windowPresenter
        if let controller = session?.controller, controller.phase != .idle {
            session?.cancel()
        } else {
            finish(failure: ShareError(.cancelled, "closed"))
        }
        // A result page (a failure stays until closed) is taken away too.
        presenter?.closeWindow()
    }

    /// The caller left the bus: nobody is waiting for a result; cancel everything.
    func callerVanished() {
        guard !ended else { return }
        let presenter = windowPresenter
        session?.controller?.dismiss()
        if session == nil { finish(failure: ShareError(.cancelled, "the caller left")) }
        presenter?.closeWindow()
    }

    private func activityType(named name: String) throws -> ActivityType {
        if let custom = call.customActions.first(where: { "app." + $0.id == name }), let type = custom.activityType {
            return type
        }
        return try host.names.type(named: name)
    }

    private func run(_ session: ShareSession, with frontEnd: any ShareFrontEnd, picking type: ActivityType?, presenter: WindowPresenter?) {
        Task { [weak self] in
            let ending: ShareSession.Ending
            do {
                ending = try await session.run(with: frontEnd, picking: type)
            } catch {
                self?.finish(failure: error)
                return
            }
            await presenter?.waitUntilClosed()
            await ending.controller.waitForProvidersToStop()
            guard let self else { return }
            // Retry on the result page may have sent what the share had left in the outbox.
            let result = session.result(of: ending, interfaceCancelled: presenter?.interfaceWasCancelled ?? false)
                .sentAfterWaiting(at: presenter?.sentWaiting)
            // In the person's history, as the command records its own shares.
            let follower = DeferredHistoryFollowing(self.host.suggestionSourceMaker?() as? any HistoryFollowing)
            for warning in HistoryRecording.record(result, ending: ending, environment: self.host.environment, follower: follower) {
                self.warn(warning)
            }
            self.finish(result)
            // The caller has its answer; the suggestions' snapshots follow the share now.
            follower.flush()
        }
    }

    private func finish(failure: any Error) {
        var result = ShareResult(failure: failure)
        // Named with the `activity` option, the activity is known even when the share never
        // started (not offered for these items), as in `share --activity … --json`.
        if let name = call.activity, let type = try? activityType(named: name) {
            result.activityType = type.rawValue
            result.activity = host.names.name(of: type)
        }
        finish(result)
    }

    /// Says the result to the caller, once, then lets go of everything.
    private func finish(_ result: ShareResult) {
        guard !ended else { return }
        ended = true
        // A caller that left cannot be told; nothing else is to be done about a signal not sent.
        try? connection.emitSignal(
            to: sender, path: path, interface: ServiceNames.requestInterface, signal: "Response",
            arguments: WireResponse(result).encode())
        if let registration { connection.unregister(registration) }
        senderWatch?.stop()
        registration = nil
        senderWatch = nil
        for descriptor in call.descriptors { Glibc.close(descriptor) }
        // The copies of the caller's files: whatever the activity made of them is done (saved,
        // sent, queued, printed), and the service may live on, or end without deinitializers.
        for item in call.items {
            if let provider = item.value as? FileProvider {
                try? FileManager.default.removeItem(at: provider.fileURL.deletingLastPathComponent())
            }
        }
        session = nil
        windowPresenter = nil
        onEnd(self)
    }
}

/// The service's front end for `interactive=false`: the picked activity with what the call
/// preset, and nobody to ask.
@MainActor
private final class ScriptedFrontEnd: ShareFrontEnd {
    private var last: ScriptedPresenter?

    func presenter(picking type: ActivityType?) -> any Presenter {
        let presenter = ScriptedPresenter(pick: type)
        last = presenter
        return presenter
    }

    func answer(_ need: ShareNeed) async -> String? { nil }

    var shownInterface: ActivityInterface? { last?.shownInterface }
}
