// Seed 002 ("Control what you're sharing"): a provider that downloads a remote photo only after
// the person picks an activity, and shares the photo's link instead for Mail and Messages.
// Written as modern Swift; the only line that differs from the iOS version is the import, plus
// the FoundationNetworking import Linux needs for URLSession.
import ShareSheetUIKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Shares the photo at `photoURL`, fetched only once an activity is chosen.
///
/// Swift 6 asks every subclass of `Operation` to restate `@unchecked Sendable`; Apple's SDK asks
/// the same of a `UIActivityItemProvider` subclass in the Swift 6 language mode, so this is not a
/// difference of the port. The mutable state below is only touched under `lock`.
class PhotoActivityItemProvider: UIActivityItemProvider, @unchecked Sendable {
    let photoURL: URL
    private let lock = NSLock()
    /// The semaphore `item` waits on while the download runs, so `cancel()` can wake it.
    private var semaphore: DispatchSemaphore?
    private var downloadedImage: UIImage?

    init(_ photoURL: URL) {
        self.photoURL = photoURL
        // An empty image: the sheet offers what takes images, without downloading anything.
        super.init(placeholderItem: UIImage())
    }

    // Runs on a background thread after the pick, so it may block until the download ends.
    override var item: Any {
        guard let activityType = self.activityType else {
            return photoURL.absoluteString
        }
        if activityType == .mail || activityType == .message {
            return "The photo link is \(photoURL.absoluteString)."
        }

        let semaphore = DispatchSemaphore(value: 0)
        let task = URLSession.shared.dataTask(with: photoURL) { data, _, _ in
            defer { semaphore.signal() }
            guard let data, let image = UIImage(data: data) else { return }
            self.lock.withLock { self.downloadedImage = image }
        }
        // Publish the semaphore before waiting; a cancel that came first means no download.
        let cancelledAlready = lock.withLock { () -> Bool in
            self.semaphore = semaphore
            return isCancelled
        }
        if !cancelledAlready {
            task.resume()
            semaphore.wait()
        }
        let image = lock.withLock { () -> UIImage? in
            self.semaphore = nil
            return downloadedImage
        }
        if let image {
            return image
        }
        task.cancel()
        return super.item
    }

    override func cancel() {
        // Mark cancelled first, then wake the waiting `item`: whichever of the two runs first,
        // `item` either sees the cancel or gets woken (the article signals first, which can miss
        // a download that starts in between).
        super.cancel()
        lock.withLock { _ = semaphore?.signal() }
    }
}
