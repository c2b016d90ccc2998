import Foundation
import ShareServiceProtocol
import Testing

@Suite("The service's interface file")
struct InterfaceFileTests {
    @Test("the introspection XML the service serves is the file in Resources/dbus")
    func embeddedXMLMatchesTheFile() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = try String(
            contentsOf: repository.appendingPathComponent("Resources/dbus/org.sharesheet.ShareSheet1.xml"), encoding: .utf8)
        #expect(InterfaceXML.text + "\n" == file)
    }
}
