import CGMime
import Foundation

/// Writes a `MailMessage` as an RFC 5322 / MIME message with GMime, the one place this module
/// builds MIME structure. File attachments are streamed from their files through GMime's base64
/// filter into the output, so a 1 GB attachment never sits in memory.
enum MIMEWriter {
    /// GMime's global state, set up once per process.
    private static let initialized: Bool = {
        g_mime_init()
        return true
    }()

    /// Writes `message` to the open descriptor `descriptor` and flushes it to disk.
    /// - Parameters:
    ///   - from: the sender to put in the From header.
    ///   - date: the Date header's time.
    /// - Throws: `MailError` when an attachment cannot be read or the write fails.
    static func write(_ message: MailMessage, from: String, to descriptor: Int32) throws(MailError) {
        precondition(initialized)
        // Open every attachment first, so an unreadable one fails before anything is written.
        var streams: [UnsafeMutablePointer<GMimeStream>] = []
        defer { for stream in streams { g_object_unref(stream) } }
        for attachment in message.attachments {
            switch attachment.content {
            case .file(let url):
                let file = open(url.path, O_RDONLY | O_CLOEXEC)
                guard file >= 0 else {
                    throw .unreadableAttachment(name: url.lastPathComponent, reason: String(cString: strerror(errno)))
                }
                var info = stat()
                if fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                    close(file)
                    throw .unreadableAttachment(name: url.lastPathComponent, reason: "is a directory")
                }
                streams.append(g_mime_stream_fs_new(file))  // owns and closes `file`
            case .data(let data):
                let stream = data.withUnsafeBytes { buffer in
                    g_mime_stream_mem_new_with_buffer(buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count)
                }
                streams.append(stream!)
            }
        }

        let mimeMessage = g_mime_message_new(1)!
        defer { g_object_unref(mimeMessage) }
        let messageObject: UnsafeMutablePointer<GMimeObject> = cast(mimeMessage)

        let sender = Mailbox(from)
        g_mime_message_add_mailbox(mimeMessage, GMIME_ADDRESS_TYPE_FROM, sender?.name, sender?.address ?? from)
        for (type, list) in [(GMIME_ADDRESS_TYPE_TO, message.to), (GMIME_ADDRESS_TYPE_CC, message.cc),
                             (GMIME_ADDRESS_TYPE_BCC, message.bcc)] {
            for text in list {
                guard let mailbox = Mailbox(text) else { continue }
                g_mime_message_add_mailbox(mimeMessage, type, mailbox.name, mailbox.address)
            }
        }
        g_mime_message_set_subject(mimeMessage, message.subject, "utf-8")
        let now = g_date_time_new_now_local()
        g_mime_message_set_date(mimeMessage, now)
        g_date_time_unref(now)
        let domain = sender.map { String($0.address[$0.address.index(after: $0.address.lastIndex(of: "@")!)...]) }
        if let identifier = g_mime_utils_generate_message_id(domain ?? "sharesheet.invalid") {
            g_mime_message_set_message_id(mimeMessage, identifier)
            g_free(identifier)
        }
        g_mime_object_set_header(messageObject, "User-Agent", "ShareSheet", nil)

        // The body: plain text, with an HTML alternative when there is one.
        var body: UnsafeMutablePointer<GMimeObject>? = nil
        if !message.body.isEmpty || message.htmlBody != nil || message.attachments.isEmpty {
            let plain = textPart(message.body, subtype: "plain")
            if let html = message.htmlBody {
                let alternative = g_mime_multipart_new_with_subtype("alternative")!
                g_mime_multipart_add(alternative, plain)
                let htmlPart = textPart(html, subtype: "html")
                g_mime_multipart_add(alternative, htmlPart)
                g_object_unref(plain)
                g_object_unref(htmlPart)
                body = cast(alternative)
            } else {
                body = plain
            }
        }

        let top: UnsafeMutablePointer<GMimeObject>
        if message.attachments.isEmpty {
            top = body!
        } else {
            let mixed = g_mime_multipart_new_with_subtype("mixed")!
            if let body {
                g_mime_multipart_add(mixed, body)
                g_object_unref(body)
            }
            for (attachment, stream) in zip(message.attachments, streams) {
                let (major, minor) = splitType(attachment.mimeType)
                let part = g_mime_part_new_with_type(major, minor)!
                let wrapper = g_mime_data_wrapper_new_with_stream(stream, GMIME_CONTENT_ENCODING_DEFAULT)
                g_mime_part_set_content(part, wrapper)
                g_object_unref(wrapper)
                g_mime_part_set_filename(part, attachment.filename)
                g_mime_object_set_disposition(cast(part), "attachment")
                g_mime_part_set_content_encoding(part, GMIME_CONTENT_ENCODING_BASE64)
                g_mime_multipart_add(mixed, cast(part))
                g_object_unref(part)
            }
            top = cast(mixed)
        }
        g_mime_message_set_mime_part(mimeMessage, top)
        g_object_unref(top)

        // Non-ASCII parameter values (file names) are written as RFC 2231 parameters.
        let options = g_mime_format_options_new()
        defer { g_mime_format_options_free(options) }
        g_mime_format_options_set_param_encoding_method(options, GMIME_PARAM_ENCODING_METHOD_RFC2231)

        let output = g_mime_stream_fs_new(descriptor)!
        g_mime_stream_fs_set_owner(cast(output), 0)
        defer { g_object_unref(output) }
        let written = g_mime_object_write_to_stream(messageObject, options, output)
        let writeError = errno
        guard written >= 0, g_mime_stream_flush(output) == 0 else {
            throw .writeFailed(String(cString: strerror(writeError)))
        }
        guard fsync(descriptor) == 0 else { throw .writeFailed(String(cString: strerror(errno))) }
    }

    private static func textPart(_ text: String, subtype: String) -> UnsafeMutablePointer<GMimeObject> {
        let part = g_mime_text_part_new_with_subtype(subtype)!
        // The bytes stay UTF-8 (g_mime_text_part_set_text would pick a legacy charset for them).
        var utf8 = Array(text.utf8)
        let stream = utf8.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                g_mime_stream_mem_new_with_buffer($0, buffer.count)!
            }
        }
        let wrapper = g_mime_data_wrapper_new_with_stream(stream, GMIME_CONTENT_ENCODING_DEFAULT)
        g_mime_part_set_content(cast(part), wrapper)
        g_object_unref(wrapper)
        g_object_unref(stream)
        g_mime_text_part_set_charset(part, "utf-8")
        // Quoted-printable keeps text readable and lines short whatever they hold.
        let allASCII = text.utf8.allSatisfy { $0 < 0x80 } && !text.split(separator: "\n").contains { $0.utf8.count > 76 }
        g_mime_part_set_content_encoding(cast(part), allASCII ? GMIME_CONTENT_ENCODING_7BIT : GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE)
        return cast(part)
    }

    private static func splitType(_ type: String) -> (String, String) {
        let pieces = type.split(separator: "/", maxSplits: 1).map(String.init)
        guard pieces.count == 2, !pieces[0].isEmpty, !pieces[1].isEmpty else { return ("application", "octet-stream") }
        return (pieces[0], pieces[1])
    }

    /// GMime's objects derive from each other by embedding: a pointer to one is a pointer to its
    /// parents.
    private static func cast<From, To>(_ pointer: UnsafeMutablePointer<From>) -> UnsafeMutablePointer<To> {
        UnsafeMutablePointer<To>(OpaquePointer(pointer))
    }
}
