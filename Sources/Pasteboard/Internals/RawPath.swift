import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The real path of a file whose name is not UTF-8.
///
/// `URL` and `String` hold only UTF-8, so the `share` command hands such a file on as a symbolic
/// link with a readable name (see `RawArguments`). Copy must not put that stand-in on the
/// clipboard: it is the command's private link, and the person copied the file itself.
enum RawPath {
    /// The bytes of the absolute path `url` links to, when `url` is a symbolic link to a path
    /// that is not UTF-8; nil for anything else (a UTF-8 path is copied as it is).
    static func nonUTF8Target(of url: URL) -> [UInt8]? {
        guard url.isFileURL else { return nil }
        let path = url.path
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let target = buffer[0..<count].map { UInt8(bitPattern: $0) }
        guard target.first == UInt8(ascii: "/"), String(validating: target, as: UTF8.self) == nil else { return nil }
        return target
    }

    /// `file://` and `path`'s bytes, each byte outside RFC 3986's unreserved set (and `/`)
    /// percent-encoded, as a URI list carries a name that is not UTF-8.
    static func fileURI(_ path: [UInt8]) -> String {
        var uri = "file://"
        for byte in path {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80, character.isLetter || character.isNumber || "-._~/".contains(character) {
                uri.append(character)
            } else {
                uri += "%" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return uri
    }
}
