import Foundation

/// The representations handed over on standard input.
enum Payload {
    static func decode(_ data: Data) -> [(type: String, data: Data)]? {
        let bytes = [UInt8](data)
        var offset = 0
        var result: [(type: String, data: Data)] = []
        func number(_ width: Int) -> Int? {
            guard offset + width <= bytes.count else { return nil }
            defer { offset += width }
            return bytes[offset..<offset + width].reduce(0) { $0 << 8 | Int($1) }
        }
        while offset < bytes.count {
            guard let nameLength = number(4), offset + nameLength <= bytes.count else { return nil }
            let name = String(decoding: bytes[offset..<offset + nameLength], as: UTF8.self)
            offset += nameLength
            guard let dataLength = number(8), offset + dataLength <= bytes.count else { return nil }
            result.append((name, Data(bytes[offset..<offset + dataLength])))
            offset += dataLength
        }
        return result
    }
}
