import Contacts
import Mail
import Nearby
import OpenIn
import Pasteboard
import PhotoLibrary
import Printing
import ReadingList
import ShareSheet
import Social

/// Installs the backends of the built-in activities that this build has.
///
/// Each backend module adds one line here when it lands; built-ins without a line stay listed
/// as unavailable with the registry's reason, never faked.
@MainActor
public enum Builtins {
    /// Installs every backend this build has into `registry`.
    public static func install(into registry: ActivityRegistry = .shared) {
        _ = registry
        registry.add(.openIn)
        registry.install(.openIn) { OpenInActivity() }
        registry.install(.mail) { MailActivity(descriptor: registry.descriptor(for: .mail)!) }
        registry.install(.message) { MessageActivity(descriptor: registry.descriptor(for: .message)!) }
        registry.install(.addToReadingList) { AddToReadingListActivity() }
        registry.install(.saveToCameraRoll) { SaveToPhotosActivity() }
        registry.install(.copyToPasteboard) { CopyActivity() }
        registry.install(.assignToContact) { AssignToContactActivity(descriptor: registry.descriptor(for: .assignToContact)!) }
        registry.install(.airDrop) { AirDropActivity(descriptor: registry.descriptor(for: .airDrop)!) }
        registry.install(.print) { PrintActivity(descriptor: registry.descriptor(for: .print)!) }
        SocialActivities.install(into: registry)  // adds Mastodon; installs X, Facebook, Weibo, Flickr, Vimeo, Mastodon
    }
}
