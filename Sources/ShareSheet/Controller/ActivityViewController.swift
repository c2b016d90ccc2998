import Foundation

/// Offers activities for some items and runs the one the person picks: the
/// UIActivityViewController equivalent, without a view. Presenters render it.
///
/// The pipeline (SPEC §1.6): building the sheet asks sources only for placeholders, so it costs
/// the same whether a provider takes a millisecond or a minute. After the pick, sources give
/// their items, providers run concurrently off the main actor, the activity is prepared with the
/// items in their original order, then shows its interface or performs. The completion handler
/// fires exactly once per presentation. Dismissing cancels running providers; results of
/// providers that finished are kept, so presenting the same controller again reuses them.
///
/// Providers are `Operation`s run by an `OperationQueue` the controller owns; a provider whose
/// earlier run was cancelled, or ran for another activity type, runs again in a fresh internal
/// operation (see `ActivityItemProvider`).
@MainActor
open class ActivityViewController {
    /// Receives the chosen type, whether it completed, what it returned, and any error.
    public typealias CompletionWithItemsHandler = (ActivityType?, Bool, [Any]?, (any Error)?) -> Void

    /// Where the controller is in the pipeline.
    public enum Phase: Equatable, Sendable {
        /// Not presented.
        case idle
        /// The sheet is shown; waiting for a pick.
        case showingSheet
        /// An activity was picked; items are being produced.
        case resolving(ActivityType)
        /// The activity is working (after `perform()` or a submitted interface).
        case performing(ActivityType)
        /// The activity's interface is shown.
        case showingInterface(ActivityType)
    }

    /// The items, as given: plain values, sources and providers.
    public let activityItems: [Any]
    /// The application's own activities, offered before the built-ins.
    public let applicationActivities: [Activity]
    /// Activity types not to offer, built-in or application; nil excludes nothing.
    public var excludedActivityTypes: [ActivityType]? { didSet { builtSheet = nil } }
    /// Fires once per presentation, then is cleared.
    public var completionWithItemsHandler: CompletionWithItemsHandler?
    /// Where the built-in activities come from.
    public let registry: ActivityRegistry
    /// Recently used activities; when set, they come first in their row.
    public var history: (any ActivityHistory)? { didSet { builtSheet = nil } }
    /// Where the people, devices and applications to suggest come from (SPEC §12); nil suggests
    /// nobody. Asked once per sheet, when the sheet is built.
    public var suggestionSource: (any SuggestionSource)? { didSet { builtSheet = nil } }
    /// The most suggestions a sheet shows.
    public static let suggestionLimit = 8
    /// Values set ahead for activities' interfaces and options (`--subject`, `--to`…).
    public var presetValues: InterfaceValues = [:]
    /// What the person changed about what is sent (SPEC §13): items left out, the photos'
    /// size and location, edited text. Leaving items out makes the sheet again, so it offers
    /// what can act on the rest.
    public var itemChoices = ItemChoices() {
        didSet { if oldValue.leftOut != itemChoices.leftOut { builtSheet = nil } }
    }
    /// Prepares the items the activity receives as `itemChoices` ask; nil takes the registry's
    /// (`ActivityRegistry.itemPreparation`).
    public var itemPreparer: (any ItemPreparing)? {
        get {
            if let chosenPreparer { return chosenPreparer }
            guard let made = registry.itemPreparation?(registry.environment) else { return nil }
            chosenPreparer = made
            return made
        }
        set { chosenPreparer = newValue }
    }
    private var chosenPreparer: (any ItemPreparing)?
    /// Checks the presets against the picked activity once it is prepared, before its interface
    /// is shown or it performs: an error ends the share with it, so nothing is sent with a
    /// mistyped key. Given the activity and its interface (nil when it has none).
    public var presetCheck: (@MainActor (Activity, ActivityInterface?) -> (any Error)?)?
    /// Where the controller is in the pipeline.
    public private(set) var phase: Phase = .idle
    /// The values the person gave the picked activity's interface in this presentation, once
    /// taken: a share session runs the activity again with them when it asks for one more (a PIN).
    public private(set) var submittedValues: InterfaceValues = [:]

    private var entries: [Entry]?
    private var builtIns: [BuiltInActivity]?
    private var builtSheet: ActivitySheet?
    private var presenter: (any Presenter)?
    private var presentationID = 0
    private var currentActivity: Activity?

    /// The activity being prepared or performed now: the picked one, or the fresh activity a
    /// picked `ActivityPrototype` made. Nil before a pick and after the end.
    public var runningActivity: Activity? { currentActivity }
    private var currentInterface: ActivityInterface?
    private var resolution: Task<Void, Never>?
    private var runningProviders: [ActivityItemProvider] = []
    /// Runs the providers: each is an `Operation`, so dependencies between them hold.
    private let providerQueue: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "ShareSheet providers"
        return queue
    }()
    private var finishedProviderItems: [Int: (type: ActivityType, item: Any?)] = [:]
    private var lastOutcome: ShareOutcome?
    private var waiters: [CheckedContinuation<ShareOutcome, Never>] = []

    /// One item as the sheet sees it while it is built.
    private struct Entry {
        var placeholder: Any
        var source: (any ActivityItemSource)?
        var declaredType: String?
        var linkMetadata: LinkMetadata?
    }

    /// Makes a controller for `activityItems` (at least one) and the application's activities.
    public convenience init(activityItems: [Any], applicationActivities: [Activity]?) {
        self.init(activityItems: activityItems, applicationActivities: applicationActivities, registry: .shared)
    }

    /// Makes a controller whose built-ins come from `registry`.
    public init(activityItems: [Any], applicationActivities: [Activity]?, registry: ActivityRegistry) {
        precondition(
            !activityItems.isEmpty, "ActivityViewController needs at least one activity item; it was given none")
        self.activityItems = activityItems
        self.applicationActivities = applicationActivities ?? []
        self.registry = registry
    }

    // MARK: Building the sheet (step 1)

    /// What the sheet offers, built on first use: share row, action row, and the rest with reasons.
    public var sheet: ActivitySheet {
        if let builtSheet { return builtSheet }
        let made = buildSheet()
        builtSheet = made
        return made
    }

    /// Every offered activity: the share row, then the action row.
    public var activities: [Activity] { sheet.activities }

    /// The people, devices and applications the sheet suggests, best first (at most
    /// `suggestionLimit`), each for an activity the sheet offers; empty without a
    /// `suggestionSource`. Presenters draw them above the share row.
    public var suggestions: [ActivitySuggestion] { sheet.suggestions }

    /// The suggestion picked in this presentation, if one was.
    public private(set) var pickedSuggestion: ActivitySuggestion?

    /// Follows the suggestions while the sheet is shown: when the source's list changes (a
    /// device nearby comes into range), `suggestions` becomes the new list, kept to the
    /// activities on the sheet and `suggestionLimit`, and `changed` runs so a presenter can
    /// draw it. Following ends with `stopFollowingSuggestions()`, a pick, or a dismissal.
    public func followSuggestions(_ changed: @escaping @MainActor () -> Void) {
        guard let suggestionSource, phase == .showingSheet else { return }
        let sheet = self.sheet
        let offered = Set(sheet.activities.compactMap(\.activityType))
        suggestionSource.followSuggestions(for: sheet.itemKinds, offered: sheet.activities) { [weak self] suggestions in
            guard let self, self.phase == .showingSheet, var built = self.builtSheet else { return }
            let kept = Array(suggestions.filter { offered.contains($0.activityType) }.prefix(Self.suggestionLimit))
            guard kept != built.suggestions else { return }
            built.suggestions = kept
            self.builtSheet = built
            changed()
        }
    }

    /// Stops following the suggestions (`followSuggestions`).
    public func stopFollowingSuggestions() {
        suggestionSource?.stopFollowingSuggestions()
    }

    /// The most completions an address field offers at once.
    public static let completionLimit = 6

    /// The people whose address completes the last address typed into `field` (the text after
    /// its last comma), best first, from the suggestion source's contacts; none for a field that
    /// takes no addresses, for nothing typed, or without a source. One answer for every
    /// presenter to offer (the window lists it under the entry).
    public func completions(for field: InterfaceField, typed text: String) -> [AddressCompletion] {
        guard let kind = field.kind.addressKind, let suggestionSource else { return [] }
        let last = text.split(separator: ",", omittingEmptySubsequences: false).last.map(String.init) ?? text
        let typed = last.trimmingCharacters(in: .whitespaces)
        guard !typed.isEmpty else { return [] }
        return Array(suggestionSource.people(matching: typed, kind: kind, limit: Self.completionLimit).prefix(Self.completionLimit))
    }

    private func placeholderEntries() -> [Entry] {
        if let entries { return entries }
        // Only placeholders here: no item or provider work while the sheet is built.
        let made = activityItems.map { item -> Entry in
            guard let source = Self.source(of: item) else { return Entry(placeholder: item) }
            let placeholder = source.activityViewControllerPlaceholderItem(self)
            let declared = source.activityViewController(self, dataTypeIdentifierForActivityType: nil)
            return Entry(
                placeholder: placeholder, source: source, declaredType: declared.isEmpty ? nil : declared,
                linkMetadata: source.activityViewControllerLinkMetadata(self))
        }
        entries = made
        return made
    }

    /// The item as a source, or nil for a plain value.
    ///
    /// Only a class instance can be a source, and the metatype says so without touching the
    /// value: on Linux, `as? any ActivityItemSource` on a `URL` first bridges it to an `NSURL`,
    /// which re-parses the URL (about 8 µs, most of a large sheet's build).
    static func source(of item: Any) -> (any ActivityItemSource)? {
        guard Swift.type(of: item) is AnyObject.Type else { return nil }
        return item as? any ActivityItemSource
    }

    private func buildSheet() -> ActivitySheet {
        let entries = placeholderEntries()
        let allPlainItems = entries.map(\.placeholder)
        let allTypedItems = entries.map { Self.typed($0.placeholder, declaredType: $0.declaredType) }
        let excluded = Set(excludedActivityTypes ?? [])
        // Each item is classified once per sheet; built-ins decide from these kinds.
        let allKinds = allTypedItems.map(ItemKind.of)
        // The header shows every item; what is offered depends on the items that are sent.
        let sent = entries.indices.filter { !itemChoices.leftOut.contains($0) }
        let plainItems = sent.count == entries.count ? allPlainItems : sent.map { allPlainItems[$0] }
        let typedItems = sent.count == entries.count ? allTypedItems : sent.map { allTypedItems[$0] }
        let kinds = sent.count == entries.count ? allKinds : sent.map { allKinds[$0] }
        let known = KnownItemKinds(kinds: kinds, of: typedItems)
        var sheet = ActivitySheet(shareRow: [], actionRow: [], unavailable: [], itemKinds: allKinds)
        sheet.previews = zip(entries, allKinds).map { entry, kind in
            ItemPreview(placeholder: entry.placeholder, linkMetadata: entry.linkMetadata, kind: kind)
        }
        if builtIns == nil { builtIns = registry.makeBuiltInActivities() }
        // The application's activities, then what installed applications add (asked at once),
        // then the built-ins, each row in this order.
        let extensions = registry.extensions?.sheetPart(for: registry.environment, itemKinds: kinds)
        let candidates: [(Activity, [Any])] =
            applicationActivities.map { ($0, plainItems) } + (builtIns ?? []).map { ($0, typedItems) }
        for (number, (activity, items)) in candidates.enumerated() {
            if number == applicationActivities.count, let extensions { add(extensions, to: &sheet, excluding: excluded) }
            if let type = activity.activityType, excluded.contains(type) {
                sheet.unavailable.append((activity, "excluded by the application"))
                continue
            }
            activity.knownItemKinds = activity is BuiltInActivity ? known : nil
            defer { activity.knownItemKinds = nil }
            if activity.canPerform(withActivityItems: items) {
                if activity.category == .share { sheet.shareRow.append(activity) } else { sheet.actionRow.append(activity) }
            } else {
                let why = activity.unavailability(forActivityItems: items) ?? Unavailability("it cannot act on these items")
                sheet.unavailable.append((activity, why.reason))
                // Only a reason with facts beyond its words is kept a second time.
                if why != Unavailability(why.reason) { sheet.unavailableFixes[ObjectIdentifier(activity)] = why }
            }
        }
        if candidates.count == applicationActivities.count, let extensions { add(extensions, to: &sheet, excluding: excluded) }
        withExtendedLifetime(typedItems) {}
        if let suggestionSource {
            let offered = Set(sheet.activities.compactMap(\.activityType))
            sheet.suggestions = Array(
                suggestionSource.suggestions(for: kinds, offered: sheet.activities)
                    .filter { offered.contains($0.activityType) }.prefix(Self.suggestionLimit))
        }
        if let recent = history?.recentTypes(for: kinds), !recent.isEmpty {
            sheet.shareRow = Self.recentFirst(sheet.shareRow, recent: recent)
            sheet.actionRow = Self.recentFirst(sheet.actionRow, recent: recent)
        }
        return sheet
    }

    /// The extensions' part of the sheet, less what the application excluded.
    private func add(_ part: ExtensionSheetPart, to sheet: inout ActivitySheet, excluding excluded: Set<ActivityType>) {
        guard !excluded.isEmpty else {
            sheet.shareRow += part.shareRow
            sheet.actionRow += part.actionRow
            sheet.unavailable += part.unavailable
            sheet.unavailableFixes.merge(part.unavailableFixes) { _, part in part }
            return
        }
        func isExcluded(_ activity: Activity) -> Bool { activity.activityType.map(excluded.contains) ?? false }
        var excludedIDs = Set<ObjectIdentifier>()
        for activity in part.shareRow + part.actionRow + part.unavailable.map(\.activity) where isExcluded(activity) {
            sheet.unavailable.append((activity, "excluded by the application"))
            excludedIDs.insert(ObjectIdentifier(activity))
        }
        sheet.shareRow += part.shareRow.filter { !isExcluded($0) }
        sheet.actionRow += part.actionRow.filter { !isExcluded($0) }
        sheet.unavailable += part.unavailable.filter { !isExcluded($0.activity) }
        for (id, why) in part.unavailableFixes where !excludedIDs.contains(id) { sheet.unavailableFixes[id] = why }
    }

    private static func recentFirst(_ row: [Activity], recent: [ActivityType]) -> [Activity] {
        func rank(_ activity: Activity) -> Int {
            activity.activityType.flatMap { recent.firstIndex(of: $0) } ?? recent.count
        }
        // Enumerated so that activities never used keep their order.
        return row.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }

    /// Bytes whose source declared a type become a named `DataItem` for the built-ins.
    static func typed(_ value: Any, declaredType: String?) -> Any {
        guard let declaredType, let data = value as? Data else { return value }
        let item = DataItem(data: data, filename: "item", typeIdentifier: declaredType)
        let ext = item.type.preferredFilenameExtension.map { "." + $0 } ?? ""
        return DataItem(data: data, filename: "item" + ext, typeIdentifier: declaredType)
    }

    // MARK: Presenting

    /// Shows the sheet through `presenter` (or headless when nil). Ignored while presented.
    public func present(with presenter: (any Presenter)? = nil) {
        guard phase == .idle else { return }
        presentationID += 1
        self.presenter = presenter
        lastOutcome = nil
        submittedValues = [:]
        pickedSuggestion = nil
        presetsBeforeSuggestion = nil
        interruptedActivity = nil
        phase = .showingSheet
        presenter?.present(sheet: sheet, controller: self)
    }

    /// Waits until the current presentation ends and returns how it ended.
    public func waitForCompletion() async -> ShareOutcome {
        if phase == .idle { return lastOutcome ?? .dismissed }
        return await withCheckedContinuation { waiters.append($0) }
    }

    /// Waits until every provider started by this controller has stopped.
    public func waitForProvidersToStop() async {
        await resolution?.value
    }

    // MARK: Picking (steps 2 to 5)

    /// Picks `suggestion`: its activity runs with its presets over `presetValues`. An activity
    /// whose interface only asks what the suggestion knew (AirDrop's device) performs at once;
    /// one whose interface asks more (Mail's subject and body) shows it with the presets filled.
    /// Ignored, like `select(_:)`, unless the sheet is shown and suggests it.
    /// - Returns: true when the pick was taken.
    @discardableResult
    public func select(_ suggestion: ActivitySuggestion) -> Bool {
        guard phase == .showingSheet, sheet.suggestions.contains(where: { $0.id == suggestion.id }) else { return false }
        let before = presetValues
        for (key, value) in suggestion.presets { presetValues[key] = .text(value) }
        pickedSuggestion = suggestion
        guard select(suggestion.activityType) else {
            presetValues = before
            pickedSuggestion = nil
            return false
        }
        presetsBeforeSuggestion = before
        return true
    }

    /// The preset values from before the picked suggestion's, put back when the person returns
    /// to the sheet.
    private var presetsBeforeSuggestion: InterfaceValues?

    /// Leaves the shown interface for the sheet (a window's Back): the interface is cancelled
    /// (its `onCancel` runs, so a search it started stops) without finishing the share, and the
    /// sheet is presented again for another pick. The activity is prepared afresh if picked again.
    /// - Returns: true when an interface was shown and the sheet is back.
    @discardableResult
    public func returnToSheet() -> Bool {
        guard case .showingInterface = phase, let activity = currentActivity else { return false }
        currentInterface?.onCancel()
        currentInterface = nil
        activity.finishing.connect(nil)
        currentActivity = nil
        if let presetsBeforeSuggestion { presetValues = presetsBeforeSuggestion }
        presetsBeforeSuggestion = nil
        pickedSuggestion = nil
        phase = .showingSheet
        presenter?.present(sheet: sheet, controller: self)
        return true
    }

    /// Picks the activity of `type`. Ignored unless the sheet is shown and offers it, so a second
    /// pick while items are produced does nothing.
    /// - Returns: true when the pick was taken.
    @discardableResult
    public func select(_ type: ActivityType) -> Bool {
        guard phase == .showingSheet, let activity = sheet.activities.first(where: { $0.activityType == type })
        else { return false }
        suggestionSource?.stopFollowingSuggestions()
        phase = .resolving(type)
        history?.record(type)
        let entries = placeholderEntries()
        for case let provider as ActivityItemProvider in entries.map(\.source) { provider.setActivityType(type) }

        var slots: [Slot] = []
        var runs: [PendingRun] = []
        var reruns: [ObjectIdentifier: Operation] = [:]
        for (index, entry) in entries.enumerated() {
            if itemChoices.leftOut.contains(index) {
                // Never asked for: the person left it out before the pick.
                slots.append(.leftOut)
            } else if let provider = entry.source as? ActivityItemProvider {
                if let finished = finishedProviderItems[index], finished.type == type {
                    slots.append(.ready(finished.item))
                } else {
                    let latch = RunLatch()
                    let operation = provider.makeRun(for: type) { latch.signal($0) }
                    if operation !== provider { reruns[ObjectIdentifier(provider)] = operation }
                    runs.append(PendingRun(index: index, provider: provider, operation: operation, latch: latch))
                    slots.append(.pending(runs.count - 1))
                }
            } else if let source = entry.source {
                slots.append(.ready(source.activityViewController(self, itemForActivityType: type)))
            } else {
                slots.append(.ready(activityItems[index]))
            }
        }
        // A re-run waits for what its provider waits for: another provider's re-run when that
        // one re-runs too, else the operation itself.
        for run in runs where run.operation !== run.provider {
            for dependency in run.provider.dependencies {
                let target = (dependency as? ActivityItemProvider).flatMap { reruns[ObjectIdentifier($0)] } ?? dependency
                run.operation.addDependency(target)
            }
        }
        // Every provider is known before this turn ends, so a dismissal in the same turn cancels
        // them all; the queue holds them until the resolution starts on the next turn, so one
        // cancelled that soon never runs its `item` at all.
        runningProviders = runs.map(\.provider)
        if !runs.isEmpty {
            providerQueue.isSuspended = true
            providerQueue.addOperations(runs.map(\.operation), waitUntilFinished: false)
        }
        let id = presentationID
        resolution = Task { [weak self, providerQueue] in
            providerQueue.isSuspended = false
            guard let self else { return }
            await self.resolve(slots, runs: runs, for: activity, type: type, presentation: id)
        }
        return true
    }

    /// One provider run the pick started.
    private struct PendingRun {
        var index: Int
        var provider: ActivityItemProvider
        var operation: Operation
        var latch: RunLatch
    }

    private enum Slot {
        case ready(Any?)
        /// Made by `runs[n]`.
        case pending(Int)
        /// Left out by the person (`itemChoices`).
        case leftOut
    }

    private func resolve(
        _ slots: [Slot], runs: [PendingRun], for activity: Activity, type: ActivityType, presentation id: Int
    ) async {
        if !runs.isEmpty {
            presenter?.providersDidStart(
                runs.map { ProviderProgress(name: Self.displayName(of: $0.provider.placeholderItem), progress: $0.provider.progress) },
                controller: self)
        }
        var results: [ProviderRunResult] = Array(repeating: ProviderRunResult(), count: runs.count)
        await withTaskGroup(of: (Int, ProviderRunResult).self) { group in
            for (number, run) in runs.enumerated() {
                let latch = run.latch
                group.addTask { (number, await latch.wait()) }
            }
            for await (number, result) in group {
                results[number] = result
                if result.failure != nil {
                    for run in runs { run.provider.cancel() }
                }
            }
        }
        let current = id == presentationID
        if current {
            runningProviders = []
            if !runs.isEmpty { presenter?.providersDidStop(controller: self) }
        }
        // Work that finished before a dismissal is kept: the next presentation reuses it.
        for (number, run) in runs.enumerated() where results[number].finished && results[number].failure == nil {
            let item = current ? run.provider.activityViewController(self, itemForActivityType: type) : results[number].item
            finishedProviderItems[run.index] = (type, item)
        }
        guard current, phase == .resolving(type) else { return }

        var resolved: [(item: Any, typed: Any, source: (any ActivityItemSource)?)] = []
        for (index, slot) in slots.enumerated() {
            var value: Any?
            switch slot {
            case .leftOut: continue
            case .ready(let ready): value = ready
            case .pending(let number):
                if let error = results[number].failure {
                    complete(ShareOutcome(activityType: type, completed: false, returnedItems: nil, error: error))
                    return
                }
                value = finishedProviderItems[index]?.item
            }
            let source = placeholderEntries()[index].source
            let declared = source?.activityViewController(self, dataTypeIdentifierForActivityType: type)
            guard value != nil, !(value is NSNull) else { continue }
            if let edited = itemChoices.editedTexts[index], value is String { value = edited }
            guard let value else { continue }
            resolved.append((value, Self.typed(value, declaredType: declared.flatMap { $0.isEmpty ? nil : $0 }), source))
        }
        let (run, items) = makeRun(of: activity, type: type, resolved: resolved)
        guard let preparer = itemPreparer, preparer.needsPreparing(items, for: run, choices: itemChoices) else {
            start(run, type: type, items: items)
            return
        }
        do {
            let prepared = try await preparer.prepare(items, for: run, choices: itemChoices)
            guard id == presentationID, phase == .resolving(type) else { return }
            start(run, type: type, items: prepared)
        } catch {
            guard id == presentationID, phase == .resolving(type) else { return }
            complete(ShareOutcome(activityType: type, completed: false, returnedItems: nil, error: error))
        }
    }

    /// The activity that runs (a prototype's own copy) with its context set, and the items it
    /// receives: a built-in only those it accepts.
    private func makeRun(
        of picked: Activity, type: ActivityType, resolved: [(item: Any, typed: Any, source: (any ActivityItemSource)?)]
    ) -> (Activity, [Any]) {
        // A prototype shared by sheets is never run itself: the run gets an activity of its own.
        let activity: Activity
        if let prototype = picked as? ActivityPrototype {
            activity = prototype.makeActivity()
            activity.hostEnvironment = registry.environment
        } else {
            activity = picked
        }
        let entries = placeholderEntries()
        // A source whose item the person left out gives no subject either.
        let subject = entries.indices.lazy.filter { !self.itemChoices.leftOut.contains($0) }
            .compactMap { entries[$0].source?.activityViewController(self, subjectForActivityType: type) }
            .first { !$0.isEmpty }
        activity.context = ActivityContext(subject: subject, presetValues: presetValues)
        activity.context.linkMetadata = entries.compactMap(\.linkMetadata)
        activity.context.offersUndo = presenter?.offersUndo ?? false

        // The resolved items are classified once; built-ins keep those they accept.
        let items = activity is BuiltInActivity ? resolved.map(\.typed) : resolved.map(\.item)
        activity.knownItemKinds = activity is BuiltInActivity ? KnownItemKinds(kinds: items.map(ItemKind.of), of: items) : nil
        let usable = activity.usableIndices(from: items)
        activity.knownItemKinds = nil
        if let size = activity.thumbnailSize {
            activity.context.thumbnails = usable.map { index in
                resolved[index].source?.activityViewController(self, thumbnailImageForActivityType: type, suggestedSize: size)
            }
        }
        return (activity, usable.map { items[$0] })
    }

    private func start(_ activity: Activity, type: ActivityType, items: [Any]) {
        activity.prepare(withActivityItems: items)

        currentActivity = activity
        let id = presentationID
        activity.finishing.connect { [weak self] completed, error in
            // activityDidFinish may come from any thread; the finish always lands on the main
            // actor's next turn, so the activity's own code has returned by then.
            Task { @MainActor in
                self?.activityFinished(activity, presentation: id, completed: completed, error: error)
            }
        }
        let interface = activity.activityInterface
        if let check = presetCheck, let problem = check(activity, interface) {
            complete(ShareOutcome(activityType: type, completed: false, returnedItems: nil, error: problem))
            return
        }
        if let interface = interface?.applyingPresets(presetValues) {
            // The controller fills preset fields, so every presenter shows them filled.
            currentInterface = interface
            if let values = Self.valuesAnsweringEverything(interface, suggestion: pickedSuggestion) {
                // A suggestion that answers all the form would ask: sent as if submitted.
                phase = .performing(type)
                currentInterface = nil
                submittedValues = values
                interface.onSubmit(values)
                return
            }
            phase = .showingInterface(type)
            presenter?.present(interface: interface, for: activity, controller: self)
        } else {
            phase = .performing(type)
            activity.perform()
        }
    }

    /// The values of `interface`'s filled fields, when `suggestion` filled every field a person
    /// would be asked (the required ones and any other plain one) and they pass its checks; nil
    /// when the form still has something to ask, or there is no suggestion.
    private static func valuesAnsweringEverything(_ interface: ActivityInterface, suggestion: ActivitySuggestion?) -> InterfaceValues? {
        guard let suggestion else { return nil }
        var values: InterfaceValues = [:]
        for field in interface.fields {
            if let value = field.defaultValue, suggestion.presets[field.id] != nil {
                values[field.id] = value
            } else if field.isRequired || !field.isAdvanced {
                return nil
            }
        }
        return interface.problems(with: values).isEmpty ? values : nil
    }

    // MARK: The activity's interface

    /// Hands the person's values to the shown interface.
    /// - Returns: the problems per field id; empty when the values were taken.
    @discardableResult
    public func submitInterface(_ values: InterfaceValues) -> [String: String] {
        guard case .showingInterface(let type) = phase, let interface = currentInterface else { return [:] }
        let problems = interface.problems(with: values)
        guard problems.isEmpty else { return problems }
        phase = .performing(type)
        currentInterface = nil
        submittedValues = values
        interface.onSubmit(values)
        return [:]
    }

    /// Cancels the shown interface: the activity finishes with `false`, and with `reason` as its
    /// error when one is given (a script that could not fill a required field, say).
    public func cancelInterface(reason: (any Error)? = nil) {
        guard case .showingInterface = phase, let activity = currentActivity else { return }
        currentInterface?.onCancel()
        currentInterface = nil
        if let reason { activity.activityDidFail(reason) } else { activity.activityDidFinish(false) }
    }

    // MARK: Finishing (steps 6 and 7)

    /// Dismisses the sheet at any step: running providers are cancelled, a running activity is
    /// told to stop, and the completion handler fires with `(nil, false, nil, nil)`.
    public func dismiss() {
        suggestionSource?.stopFollowingSuggestions()
        switch phase {
        case .idle:
            return
        case .showingSheet:
            break
        case .resolving:
            cancelRunningProviders()
        case .performing, .showingInterface:
            currentInterface?.onCancel()
            currentActivity?.cancel()
        }
        complete(.dismissed)
    }

    /// Cancels as a person does (Ctrl-C, the window's Cancel, the service's `Close`): a running
    /// activity that can keep what it finished (`InterruptibleActivity`) is told to first, then
    /// the sheet is dismissed. `interruptedActivity` then says what was kept, once it stopped.
    public func dismissKeepingWork() {
        if interruptedActivity == nil, let activity = currentActivity as? InterruptibleActivity {
            activity.keepWorkWhenCancelled()
            interruptedActivity = activity
        }
        dismiss()
    }

    /// The activity `dismissKeepingWork()` asked to keep its work, in this presentation.
    public private(set) var interruptedActivity: InterruptibleActivity?

    private func cancelRunningProviders() {
        for provider in runningProviders { provider.cancel() }
    }

    private func activityFinished(_ activity: Activity, presentation id: Int, completed: Bool, error: (any Error)?) {
        guard id == presentationID, currentActivity === activity else { return }
        switch phase {
        case .performing(let type), .showingInterface(let type):
            complete(
                ShareOutcome(
                    activityType: type, completed: completed, returnedItems: activity.returnedItems, error: error,
                    disposition: activity.disposition, location: activity.location, fallback: activity.fallback))
        default:
            return
        }
    }

    /// Ends the presentation as UIKit does: the sheet goes away, then the completion handler
    /// runs. All of this presentation's state is settled before the handler, so a handler that
    /// presents the controller again starts a fresh presentation nothing here overwrites.
    private func complete(_ outcome: ShareOutcome) {
        guard phase != .idle else { return }
        phase = .idle
        // The activity is done with the prepared copies (a queued share copied them).
        // A program the items were handed to (a share target's Exec=) reads them after this.
        chosenPreparer?.finish(keepingCopies: outcome.disposition == .handedOff)
        currentActivity?.finishing.connect(nil)
        currentActivity = nil
        currentInterface = nil
        lastOutcome = outcome
        let shownBy = presenter
        presenter = nil
        let handler = completionWithItemsHandler
        completionWithItemsHandler = nil
        let waiting = waiters
        waiters = []
        shownBy?.dismiss(outcome: outcome, controller: self)
        handler?(outcome.activityType, outcome.completed, outcome.returnedItems, outcome.error)
        for waiter in waiting { waiter.resume(returning: outcome) }
    }

    /// A short name for an item, for progress lines: a file's name, else its kind.
    static func displayName(of item: Any?) -> String {
        guard let item else { return "item" }
        if let url = item as? URL { return url.isFileURL ? url.lastPathComponent : url.absoluteString }
        if let dataItem = item as? DataItem { return dataItem.filename }
        return ItemKind.of(item).description
    }
}

/// Carries the end of one provider run from whichever thread ends it to the resolution task.
final class RunLatch: Sendable {
    private let state = Locked<(result: ProviderRunResult?, waiter: CheckedContinuation<ProviderRunResult, Never>?)>((nil, nil))

    /// Records the run's result and wakes the waiter; later calls are ignored.
    func signal(_ result: ProviderRunResult) {
        let waiter = state.withLock { state -> CheckedContinuation<ProviderRunResult, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: result)
    }

    /// Waits until the run ended and returns what it produced.
    func wait() async -> ProviderRunResult {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> ProviderRunResult? in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
