/// Why the workspace could not find, start or configure an application.
public struct WorkspaceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// No application handles the URL's scheme or the file's type.
        case noHandler
        /// The application was found but could not be started.
        case launchFailed
        /// No installed application has the id asked for.
        case noSuchApplication
        /// The file to open does not exist or cannot be read.
        case missingFile
        /// The desktop's default could not be written.
        case configurationFailed
    }

    /// What went wrong.
    public var kind: Kind
    /// One line naming the URL, type or application and the reason.
    public var message: String

    /// Makes an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
