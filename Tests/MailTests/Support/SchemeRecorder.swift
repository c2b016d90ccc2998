import Foundation

/// A stand-in for the desktop's handler of one URL scheme (`mailto:`, `sms:`): a shell script
/// declared as an application in a ``TestHome``'s XDG folders and made the scheme's default,
/// which writes the URL it is started with into a file. The Mail and Message hand-offs reach it
/// the way they reach a person's mail or messaging program.
enum SchemeRecorder {
    /// Installs the recorder for `scheme` under the desktop file ID `id` (`SCHEME-recorder.desktop`
    /// unless given) and returns the file the URL will be written to.
    static func install(in home: TestHome, scheme: String, id: String? = nil) throws -> URL {
        let id = id ?? "\(scheme)-recorder.desktop"
        let received = home.folder.appendingPathComponent("received-url")
        let script = home.folder.appendingPathComponent("recorder.sh")
        try """
        #!/bin/sh
        printf '%s' "$1" > '\(received.path).tmp' && mv '\(received.path).tmp' '\(received.path)'

        """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        let applications = home.dataHome.appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try """
        [Desktop Entry]
        Type=Application
        Name=\(scheme): Recorder
        Exec=\(script.path) %u
        MimeType=x-scheme-handler/\(scheme);
        NoDisplay=true

        """.write(to: applications.appendingPathComponent(id), atomically: true, encoding: .utf8)
        try "[Default Applications]\nx-scheme-handler/\(scheme)=\(id)\n".write(
            to: home.configHome.appendingPathComponent("mimeapps.list"), atomically: true, encoding: .utf8)
        return received
    }

    /// The URL the recorder wrote, once it has (the handler runs after `share` has ended, so
    /// this waits up to 20 s); nil when it never did.
    static func received(_ file: URL) -> String? {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let text = try? String(contentsOf: file, encoding: .utf8) { return text }
            usleep(20_000)
        }
        return nil
    }
}
