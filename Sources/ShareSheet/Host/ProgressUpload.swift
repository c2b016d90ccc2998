import Foundation

extension ProgressUserInfoKey {
    /// Marks a progress counting bytes sent to another machine (see `Progress.isUpload`).
    static let sharesheetUpload = ProgressUserInfoKey("org.sharesheet.progress.upload")
}

extension Progress {
    /// True for bytes sent to another machine (a mail server, a LocalSend receiver, a posting
    /// service). Once every byte is sent, what is left is the other side's answer: a front end
    /// says it is waiting for it, rather than standing at 100 % with nothing moving.
    public var isUpload: Bool {
        get { userInfo[.sharesheetUpload] as? Bool ?? false }
        set { setUserInfoObject(newValue, forKey: .sharesheetUpload) }
    }
}
