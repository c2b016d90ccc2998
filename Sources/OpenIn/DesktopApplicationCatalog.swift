import Foundation

/// The desktop's own applications: desktop entries and `mimeapps.list`, read by GIO.
///
/// GIO reads the XDG folders of the process's environment once, the first time it is asked,
/// and keeps what it found for the life of the process.
public struct DesktopApplicationCatalog: ApplicationCatalog {
    /// The catalog of the desktop this process runs on.
    public init() {}

    public func applications(forContentType contentType: String) -> [Application] {
        GIOApplications.applications(forContentType: contentType)
    }

    public func isChosenDefault(_ application: Application, forContentType contentType: String) -> Bool {
        application.role == .default && GIOApplications.explicitDefaults(forContentType: contentType).contains(application.id)
    }

    public func isRegistered(_ application: Application, forContentType contentType: String) -> Bool {
        GIOApplications.registeredIDs(forContentType: contentType).contains(application.id)
    }

    public func application(withID id: String) -> Application? {
        GIOApplications.application(withID: id)
    }

    public func launch(_ application: Application, urls: [URL]) throws {
        try GIOApplications.launch(id: application.id, name: application.name, urls: urls)
    }

    public func setDefault(_ application: Application, forContentType contentType: String) throws {
        try GIOApplications.setDefault(id: application.id, name: application.name, forContentType: contentType)
    }
}
