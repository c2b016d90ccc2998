import Foundation
import ShareServiceProtocol
import Testing

@Suite("The service's interface file")
struct InterfaceFileTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("the introspection XML the service serves is the file in Resources/dbus")
    func embeddedXMLMatchesTheFile() throws {
        let file = try String(
            contentsOf: Self.repository.appendingPathComponent("Resources/dbus/org.sharesheet.ShareSheet1.xml"), encoding: .utf8)
        #expect(InterfaceXML.text + "\n" == file)
    }

    @Test("the README's share service section gives every method and signal with the file's signature, and every result key")
    func readmeMatchesTheFile() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## The share service").dropFirst().first)
            .components(separatedBy: "\n## ").first ?? ""
        let members = Self.members(in: InterfaceXML.text)
        #expect(members.map(\.name).sorted() == ["Close", "ListActivities", "ListSuggestions", "Response", "Share"], "\(members)")
        for member in members {
            #expect(section.contains(member.signature), "the README does not give \(member.signature)")
        }
        // Response's keys, as the file's comment lists them: each named in the README.
        let keys = try #require(InterfaceXML.text.components(separatedBy: "results: ").dropFirst().first)
            .components(separatedBy: " — ").first ?? ""
        let names = keys.components(separatedBy: ",").compactMap { $0.split(separator: "(").first }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(names.count == 21, "\(names)")
        for name in names {
            #expect(section.contains("`\(name)`"), "the README does not name the result key \(name)")
        }
    }

    /// Methods and signals with their arguments, written as the README writes them:
    /// `Name(type name, …) → out` (a method without arguments: `Name()`).
    static func members(in xml: String) -> [(name: String, signature: String)] {
        var found: [(String, String)] = []
        let scanner = xml.components(separatedBy: "\n")
        var current: (name: String, inputs: [String], outputs: [String])?
        func close() {
            guard let member = current else { return }
            var signature = "\(member.name)(\(member.inputs.joined(separator: ", ")))"
            if !member.outputs.isEmpty { signature += " → " + member.outputs.joined(separator: ", ") }
            found.append((member.name, signature))
            current = nil
        }
        for line in scanner.map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("<method name=\"") || line.hasPrefix("<signal name=\"") {
                close()
                let name = line.components(separatedBy: "\"")[1]
                current = (name, [], [])
                if line.hasSuffix("/>") { close() }
            } else if line.hasPrefix("<arg "), current != nil {
                let attributes = Dictionary(
                    uniqueKeysWithValues: line.components(separatedBy: "\" ").compactMap { pair -> (String, String)? in
                        let parts = pair.replacingOccurrences(of: "<arg ", with: "").components(separatedBy: "=\"")
                        guard parts.count == 2 else { return nil }
                        return (parts[0], parts[1].replacingOccurrences(of: "\"/>", with: ""))
                    })
                let type = attributes["type"] ?? "?"
                if attributes["direction"] == "out" {
                    current?.outputs.append(type)
                } else {
                    current?.inputs.append("\(type) \(attributes["name"] ?? "?")")
                }
            } else if line.hasPrefix("</method>") || line.hasPrefix("</signal>") {
                close()
            }
        }
        return found
    }
}
