// The vCard readers on arbitrary bytes. Invariants: neither reader traps; the streaming reader
// (folder listings) and the whole-file reader (photo assignment) agree on every card the
// whole-file reader accepts; a card whose photo was replaced reads back with the new photo and
// everything else unchanged.
import Contacts
import Foundation
import FuzzSupport

enum VCardTarget {
/// Where the streaming reader reads each input from: one file, rewritten for every input, in
/// memory when /dev/shm is there.
static let scratchFile: URL = {
    let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    return URL(fileURLWithPath: folder).appendingPathComponent("fuzz-vcard-\(getpid()).vcf")
}()
/// A photo to put into cards: a few bytes, including every base64 padding case.
static let newPhoto = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49])

static func check(_ bytes: [UInt8]) {
    let whole = try? VCardReaders.contact(parsing: bytes, fileURL: scratchFile)
    precondition(FileManager.default.createFile(atPath: scratchFile.path, contents: Data(bytes)), "cannot write \(scratchFile.path)")
    // A tiny chunk size makes lines and folds straddle reads.
    let chunkSize = 1 + (bytes.first.map(Int.init) ?? 0) % 7
    let streamed = try? VCardReaders.contact(streaming: scratchFile, chunkSize: chunkSize)
    guard let whole else { return }
    precondition(streamed == whole, "the streaming reader made \(String(describing: streamed)) of a card read as \(whole)")

    let rewritten = try! VCardReaders.replacingPhoto(in: bytes, withJPEG: newPhoto)
    let reread: Contact
    do {
        reread = try VCardReaders.contact(parsing: rewritten, fileURL: scratchFile)
    } catch {
        preconditionFailure("the card with its photo replaced does not read back: \(error)")
    }
    precondition(reread.photo?.data == newPhoto, "the replaced photo reads back as \(String(describing: reread.photo))")
    precondition(
        reread.uid == whole.uid && reread.formattedName == whole.formattedName
            && reread.nameComponents == whole.nameComponents && reread.emailAddresses == whole.emailAddresses
            && reread.version == whole.version,
        "replacing the photo changed the card: \(whole) became \(reread)")
}

}

atexit { unlink(VCardTarget.scratchFile.path) }
/// One input; the name is libFuzzer's (its own `main`, unused here, refers to it).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    VCardTarget.check(fuzzInput(data, size))
    return 0
}

runFuzzTarget(testOneInput)
