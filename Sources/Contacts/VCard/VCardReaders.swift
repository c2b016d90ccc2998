import Foundation

/// The card readers and the photo rewrite without a contacts folder, for the fuzz target
/// (`fuzz-vcard`): the same code `ContactBook` runs on a file, reached from bytes.
package enum VCardReaders {
    /// The contact the whole-file reader (the one a photo assignment uses) makes of `bytes`.
    /// - Throws: `VCardSyntaxError` when the bytes are not exactly one vCard 3.0 or 4.0.
    package static func contact(parsing bytes: [UInt8], fileURL: URL) throws -> Contact {
        Contact(fileURL: fileURL, document: try VCardDocument(bytes: bytes))
    }

    /// The contact the streaming reader (the one listing a folder uses) makes of the file at `url`,
    /// read `chunkSize` bytes at a time.
    /// - Throws: `ShareError` naming the file when it is not one card that can be read.
    package static func contact(streaming url: URL, chunkSize: Int) throws -> Contact {
        try CardFile.contact(at: url, chunkSize: chunkSize)
    }

    /// The card's bytes with its photo replaced by `jpeg`, as a photo assignment writes them.
    /// - Throws: `VCardSyntaxError` when the bytes are not exactly one vCard 3.0 or 4.0.
    package static func replacingPhoto(in bytes: [UInt8], withJPEG jpeg: Data) throws -> [UInt8] {
        try VCardDocument(bytes: bytes).replacingPhoto(withJPEG: jpeg)
    }
}
