// The README's "From UIKit" example, built the way a stranger builds it: a package of its own that
// depends on this one by path, the example's code in it unchanged, its sheet drawn headless. What
// this catches and compiling the example inside our own test target cannot: products that a
// depending package cannot import, and a sheet that is empty outside our own setup code.
import Foundation
import LocalTestSupport
import Testing

@Suite("The README's From UIKit example, in a package of its own")
struct ReadmeUIKitExampleTests {
    /// This repository: three folders up from this file.
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Where the fresh package lives. A fixed folder, not a fresh one per run: its build folder
    /// is kept, so only the first run compiles all of ShareSheet (minutes); later runs rebuild
    /// what changed. One per checkout, named after its path, so two checkouts on one machine do
    /// not take turns rebuilding everything.
    private static let package = FileManager.default.temporaryDirectory.appendingPathComponent(
        "sharesheet-readme-uikit-example" + repository.path.replacingOccurrences(of: "/", with: "-"), isDirectory: true)

    @Test("built as printed, the example's sheet offers the built-ins", .timeLimit(.minutes(40)))
    func exampleOffersBuiltIns() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let example = try #require(Self.swiftBlock(inSection: "## From UIKit", of: readme))
        try writePackage(example: example)

        let build = try Command.run(
            "/usr/bin/env",
            ["swift", "build", "--package-path", Self.package.path, "--scratch-path", Self.scratch.path],
            timeout: 35 * 60)
        try #require(build.status == 0, "the example did not build:\n\(build)")

        // Standard input is at its end, so the terminal sheet is dismissed as soon as it is drawn.
        let home = try TemporaryHome(prefix: "readme-uikit")
        defer { home.remove() }
        let run = try Command.run(
            Self.scratch.appendingPathComponent("debug/ReadmeExample").path, [], environment: home.environment,
            timeout: 60)
        #expect(run.status == 0, "\(run)")
        let sheet = run.standardOutput
        // Entries read "1 Mail (mail)": the title, then the command name.
        for entry in ["Mail (mail)", "AirDrop (airdrop)", "Copy (copy)", "Save to Photos (photos)"] {
            #expect(sheet.contains(entry), "the sheet does not offer \(entry):\n\(run)")
        }
        // The example excludes Print, and its completion handler reports the dismissal.
        #expect(!sheet.contains("(print)"), "\(run)")
        #expect(sheet.contains("dismissed false"), "\(run)")
    }

    private static var scratch: URL { package.appendingPathComponent(".build", isDirectory: true) }

    /// The first Swift code block after the `heading` line, up to the next heading.
    static func swiftBlock(inSection heading: String, of markdown: String) -> String? {
        guard let section = markdown.range(of: "\n" + heading + "\n") else { return nil }
        let rest = markdown[section.upperBound...]
        let sectionEnd = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        guard let open = rest.range(of: "```swift\n", range: rest.startIndex..<sectionEnd),
            let close = rest.range(of: "\n```\n", range: open.upperBound..<sectionEnd)
        else { return nil }
        return String(rest[open.upperBound..<close.lowerBound]) + "\n"
    }

    /// Writes the package: the example as its own file, and a `main.swift` that calls it.
    ///
    /// The example only declares things (a provider and `share(_:)`), and Swift allows top-level
    /// statements in `main.swift` alone, so the call is the one line of a second file.
    private func writePackage(example: String) throws {
        let sources = Self.package.appendingPathComponent("Sources/ReadmeExample", isDirectory: true)
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        // A path dependency's identity is its folder's name, whatever this checkout is called.
        let identity = Self.repository.lastPathComponent
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "ReadmeExample",
                dependencies: [.package(path: "\(Self.repository.path)")],
                targets: [
                    .executableTarget(
                        name: "ReadmeExample",
                        dependencies: [
                            .product(name: "ShareSheetUIKit", package: "\(identity)"),
                            .product(name: "ShareSheetTerminal", package: "\(identity)"),
                        ])
                ]
            )

            """
        let main = """
            import Foundation

            await share(URL(fileURLWithPath: "/nonexistent/photo.jpg"))

            """
        try Self.write(manifest, to: Self.package.appendingPathComponent("Package.swift"))
        try Self.write(example, to: sources.appendingPathComponent("Example.swift"))
        try Self.write(main, to: sources.appendingPathComponent("main.swift"))
    }

    /// Writes `text` unless the file already holds it, so an unchanged package is not rebuilt.
    private static func write(_ text: String, to url: URL) throws {
        if (try? String(contentsOf: url, encoding: .utf8)) == text { return }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}
