// The LocalSend receiver's request checks on arbitrary input: the first line is a request path,
// the rest a JSON body (a `prepare-upload` offer, or a `register` device description).
// Invariants: nothing traps; a path routes to an endpoint only when it names it exactly; an
// offer is answered with one of the statuses the receiver uses before asking anyone; and what
// goes on to the terminal and the Downloads folder (alias, model, file names, previews) holds no
// control character, and the file names stay inside the folder.
import Foundation
import FuzzSupport
import Nearby

enum LocalSendTarget {
    static let ourFingerprint = String(repeating: "ab", count: 32)
    static let api = "/api/localsend/v2/"

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    static func check(_ bytes: [UInt8]) {
        let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        let path = String(decoding: bytes[..<newline], as: UTF8.self)
        let body = Data(bytes[min(newline + 1, bytes.endIndex)...])

        if let endpoint = ReceiverRequests.endpoint(path) {
            precondition(path == api + endpoint, "\(path.debugDescription) routed to \(endpoint)")
            precondition(["register", "info", "prepare-upload", "upload", "cancel"].contains(endpoint))
        }
        _ = try? JSONDecoder().decode(DeviceInfo.self, from: body)

        let offer = ReceiverRequests.readOffer(body, ourFingerprint: ourFingerprint)
        precondition([200, 204, 400, 412].contains(offer.status), "an offer answered \(offer.status)")
        guard offer.status == 200 else { return }
        for text in [offer.alias, offer.deviceModel].compactMap({ $0 }) {
            precondition(!text.unicodeScalars.contains(where: isControl), "a control character in \(text.debugDescription)")
            precondition(text.count <= 65, "\(text.count) characters of alias or model")
        }
        precondition(!offer.fileIds.isEmpty && offer.fileIds.count == offer.fileNames.count)
        for name in offer.fileNames {
            precondition(!name.isEmpty && !name.hasPrefix(".") && !name.contains("/"), "unsafe file name \(name.debugDescription)")
            precondition(name.utf8.count <= 200, "a file name of \(name.utf8.count) bytes")
            precondition(!name.unicodeScalars.contains(where: isControl), "a control character in the name \(name.debugDescription)")
            let folder = URL(fileURLWithPath: "/downloads")
            precondition(folder.appendingPathComponent(name).deletingLastPathComponent().standardizedFileURL.path == "/downloads")
        }
        for preview in offer.previews {
            precondition(
                !preview.unicodeScalars.contains { isControl($0) && $0 != "\n" && $0 != "\t" },
                "a control character in the preview \(preview.debugDescription)")
        }
    }
}

/// One input; the name is libFuzzer's (its own `main`, unused here, refers to it).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    LocalSendTarget.check(fuzzInput(data, size))
    return 0
}

runFuzzTarget(testOneInput)
