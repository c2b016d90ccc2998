import Contacts
import Mail
import Nearby
import OpenIn
import Pasteboard
import PhotoLibrary
import Printing
import ReadingList
import ShareSheet
import ShareTargets
import Social

/// Installs the backends of the built-in activities that this build has.
///
/// Each backend module adds one line here when it lands; built-ins without a line stay listed
/// as unavailable with the registry's reason, never faked.
@MainActor
public enum Builtins {
    /// Installs every backend this build has into `registry`.
    public static func install(into registry: ActivityRegistry = .shared) {
        registry.add(.openIn)
        registry.install(.openIn) { OpenInActivity() }
        // Looked up once here, not per sheet (a sheet makes every activity afresh), and the
        // factories do not hold the registry that holds them.
        let mail = registry.descriptor(for: .mail)
        let message = registry.descriptor(for: .message)
        let assignToContact = registry.descriptor(for: .assignToContact)
        let airDrop = registry.descriptor(for: .airDrop)
        let print = registry.descriptor(for: .print)
        registry.install(.mail) { MailActivity(descriptor: mail!) }
        registry.install(.message) { MessageActivity(descriptor: message!) }
        registry.install(.addToReadingList) { AddToReadingListActivity() }
        registry.install(.saveToCameraRoll) { SaveToPhotosActivity() }
        registry.install(.copyToPasteboard) { CopyActivity() }
        registry.install(.assignToContact) { AssignToContactActivity(descriptor: assignToContact!) }
        registry.install(.airDrop) { AirDropActivity(descriptor: airDrop!) }
        registry.install(.print) { PrintActivity(descriptor: print!) }
        SocialActivities.install(into: registry)  // adds Mastodon; installs X, Facebook, Weibo, Flickr, Vimeo, Mastodon
        // Installed applications' desktop entries (SPEC §9), before the built-ins of their row.
        ShareTargetExtensions.install(into: registry)
        // Photos that leave go smaller and without their location, as the person chooses (SPEC §13).
        registry.itemPreparation = { PhotoItemPreparer(environment: $0) }
        registry.waitingSender = WaitingMail.send
    }
}
