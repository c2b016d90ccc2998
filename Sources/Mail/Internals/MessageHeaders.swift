import Foundation

/// The message writer and the header reader without an outbox, for the fuzz target
/// `fuzz-mime-headers`: a message written as the outbox writes it, then its header section read
/// back as `outbox list` and sending read it.
package enum MessageHeaders {
    /// A written message's header section and what the outbox reads from it.
    package struct Written: Sendable {
        /// The header section as written, through its blank line.
        package var section: Data
        /// The header section as it is sent, without Bcc.
        package var sent: Data
        /// The Subject, decoded.
        package var subject: String
        /// The addresses of To, Cc and Bcc.
        package var to: [String]
        package var cc: [String]
        package var bcc: [String]
    }

    /// Writes `message` from `from` into the empty file `descriptor` and reads its headers back.
    /// - Throws: `MailError` when the message cannot be written; nil when its header section
    ///   cannot be read back.
    package static func write(_ message: MailMessage, from: String, to descriptor: Int32) throws(MailError) -> Written? {
        try MIMEWriter.write(message, from: from, to: descriptor)
        guard let headers = HeaderSection.read(descriptor) else { return nil }
        var section = [UInt8](repeating: 0, count: headers.length)
        guard pread(descriptor, &section, headers.length, 0) == headers.length else { return nil }
        return Written(
            section: Data(section), sent: headers.withoutBcc, subject: headers.subject, to: headers.addresses("To"),
            cc: headers.addresses("Cc"), bcc: headers.addresses("Bcc"))
    }

    /// The address of `text` (`addr@host` or `Name <addr@host>`) as the writer reads it; nil
    /// when it is not a mailbox.
    package static func address(of text: String) -> String? { Mailbox(text)?.address }
}
