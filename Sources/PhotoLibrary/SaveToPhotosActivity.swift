import Foundation
import ShareSheet
import ShareSheetSystem

/// Save to Photos (`.saveToCameraRoll`): copies images into the Pictures folder and videos into
/// the Videos folder, byte for byte. `returnedItems` holds the saved files.
///
/// Every item is checked before anything is copied, so a text file among photos fails the share
/// (exit 65) with nothing saved. A failure or cancellation part-way removes the files this share
/// already saved, and the file being copied never appears.
public final class SaveToPhotosActivity: BuiltInActivity {
    private let library: PhotoLibrary?
    private var sources: [PhotoSource] = []
    private var preparationError: ShareError?
    private var work: Task<Void, Never>?

    /// Makes the activity; it saves into `library`, or when nil into the library of the
    /// activity's `hostEnvironment` (with its configured subfolder).
    public init(
        descriptor: BuiltInActivityDescriptor = BuiltInActivityDescriptor.catalog.first { $0.type == .saveToCameraRoll }!,
        library: PhotoLibrary? = nil
    ) {
        self.library = library
        super.init(descriptor: descriptor)
    }

    public override func prepare(withActivityItems activityItems: [Any]) {
        do {
            sources = try activityItems.map(PhotoSource.init)
        } catch let error as ShareError {
            preparationError = error
        } catch {
            preparationError = ShareError(.badData, "\(error)")
        }
    }

    /// The Pictures and Videos folders (with `[photos] subfolder=`) it would save into.
    public override var route: ActivityRoute? {
        let keys = [ActivityRoute.Setting(group: "photos", key: "subfolder")]
        do {
            let library = try library ?? PhotoLibrary.user(in: hostEnvironment)
            return ActivityRoute(
                "saves images into \(library.picturesFolder.path) and videos into \(library.videosFolder.path)", settings: keys)
        } catch {
            return ActivityRoute("cannot save: \((error as? ShareError)?.message ?? "\(error)")", settings: keys)
        }
    }

    public override func perform() {
        if let preparationError { return activityDidFail(preparationError) }
        let sources = self.sources
        let library = self.library
        let host = hostEnvironment
        let progress = self.progress
        progress.kind = .file  // counted in bytes copied: the command shows size, rate and time left
        work = Task.detached { [weak self] in
            let outcome = Result {
                try Self.save(sources, into: library ?? PhotoLibrary.user(in: host), progress: progress, steps: host.steps)
            }
            await self?.finish(outcome)
        }
    }

    public override func cancel() {
        work?.cancel()
    }

    private func finish(_ outcome: Result<[URL], any Error>) {
        switch outcome {
        case .success(let saved):
            returnedItems = saved
            disposition = .saved
            // One place: the file, or the folder when every file went into the same one.
            let folders = Set(saved.map { $0.deletingLastPathComponent().path })
            location = saved.count == 1 ? saved[0].path : folders.count == 1 ? folders.first : nil
            activityDidFinish(true)
        case .failure(let error):
            activityDidFail(error)
        }
    }

    /// Checks every item, then saves them in order; on any failure removes what it saved.
    /// `progress` counts bytes: each file's share of it is its size.
    private nonisolated static func save(
        _ sources: [PhotoSource], into library: PhotoLibrary, progress: Progress, steps: StepLog?
    ) throws -> [URL] {
        let inspections = try sources.map { try $0.inspect() }
        let sizes = sources.map(\.byteCount)
        progress.totalUnitCount = max(1, sizes.reduce(0, +))
        var saved: [URL] = []
        do {
            for ((source, inspection), size) in zip(zip(sources, inspections), sizes) {
                let step = Progress(totalUnitCount: -1, parent: progress, pendingUnitCount: size)
                let url = try LibraryWriter.save(
                    source, as: inspection.filename, into: library.folder(for: inspection.kind), progress: step,
                    isCancelled: { Task.isCancelled })
                steps?.say("Save to Photos: copied \(source.label) (\(size) bytes, \(inspection.type.identifier)) to \(url.path)")
                saved.append(url)
            }
        } catch {
            for url in saved { unlink(url.path) }
            throw error
        }
        return saved
    }
}
