import CCurl
import Foundation

/// Builds a `multipart/form-data` body with libcurl's MIME API. File parts name their path
/// only: libcurl opens and reads them while it sends, so no file is held in memory.
enum MIMEForm {
    /// A new form for `handle` holding `parts`; the caller frees it with `curl_mime_free` after
    /// the transfer.
    static func make(_ parts: [CurlFormPart], for handle: UnsafeMutableRawPointer) throws(CurlError) -> OpaquePointer {
        guard let form = curl_mime_init(handle) else { throw CurlError(code: CURLE_OUT_OF_MEMORY, detail: "cannot make a form") }
        var result = CURLE_OK
        func step(_ code: CURLcode) { if result == CURLE_OK { result = code } }
        for part in parts {
            guard let mimePart = curl_mime_addpart(form) else {
                curl_mime_free(form)
                throw CurlError(code: CURLE_OUT_OF_MEMORY, detail: "cannot make a form")
            }
            switch part {
            case .field(let name, let value):
                step(curl_mime_name(mimePart, name))
                step(value.withCString { curl_mime_data(mimePart, $0, strlen($0)) })
            case .file(let name, let filename, let mimeType, let url):
                step(curl_mime_name(mimePart, name))
                guard curl_mime_filedata(mimePart, url.path) == CURLE_OK else {
                    curl_mime_free(form)
                    let reason = access(url.path, R_OK) == 0 ? "cannot be read" : String(cString: strerror(errno))
                    throw CurlError(code: CURLE_READ_ERROR, readFailure: "\(url.path): \(reason)")
                }
                step(curl_mime_filename(mimePart, safe(filename)))
                step(curl_mime_type(mimePart, mimeType))
            case .data(let name, let filename, let mimeType, let data):
                step(curl_mime_name(mimePart, name))
                step(data.withUnsafeBytes { curl_mime_data(mimePart, $0.baseAddress?.assumingMemoryBound(to: CChar.self), $0.count) })
                step(curl_mime_filename(mimePart, safe(filename)))
                step(curl_mime_type(mimePart, mimeType))
            }
        }
        guard result == CURLE_OK else {
            curl_mime_free(form)
            throw CurlError(code: result, detail: "cannot build the form")
        }
        return form
    }

    /// A file name that cannot end its header line or its quoted string.
    private static func safe(_ filename: String) -> String {
        String(filename.map { $0 == "\"" || $0 == "\r" || $0 == "\n" ? "_" : $0 })
    }
}
