import Foundation
import LocalTestSupport
import ShareSheet
import ShareSheetTesting
import Synchronization
import Testing
import UniformTypes

@testable import Sharing

#if canImport(FoundationXML)
import FoundationXML
#endif

@MainActor
@Suite struct SharePreviewTests {
    private let registry: ActivityRegistry
    private let backends = InMemoryBackends()

    init() {
        registry = ActivityRegistry(environment: HostEnvironment(variables: [:]))
        backends.install(into: registry)
    }

    /// The header a sheet over `items` shows.
    private func preview(_ items: [Any]) -> SharePreview {
        let controller = ActivityViewController(activityItems: items, applicationActivities: nil, registry: registry)
        return SharePreview(sheet: controller.sheet)
    }

    // MARK: One item

    @Test func aFileShowsItsNameTypeAndSizeAndAnImageFileIsItsOwnPicture() throws {
        let folder = try PreviewFolder()
        let photo = try folder.file("beach.png", size: 2_100_000, startingWith: SampleBytes.png)
        let preview = preview([photo])
        #expect(preview.title == "beach.png")
        #expect(preview.summary == "PNG image, 2.1 MB")
        #expect(preview.artwork == .imageFile(photo))
        #expect(preview.byteCount == 2_100_000)

        let report = try folder.file("report.pdf", size: 48_213, startingWith: SampleBytes.pdf)
        let pdf = self.preview([report])
        #expect(pdf.title == "report.pdf")
        #expect(pdf.summary == "PDF document, 48.2 kB")
        #expect(pdf.artwork == .icon("x-office-document-symbolic"))
    }

    @Test func aFolderAndAMissingFileHaveNoSize() throws {
        let folder = try PreviewFolder()
        let inner = folder.url.appendingPathComponent("Holiday")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        let holiday = preview([inner])
        #expect(holiday.title == "Holiday")
        #expect(holiday.summary == "Folder")
        #expect(holiday.artwork == .icon("folder-symbolic"))
        #expect(holiday.byteCount == nil)

        let gone = preview([folder.url.appendingPathComponent("gone.mp4")])
        #expect(gone.title == "gone.mp4")
        #expect(gone.summary == "MPEG-4 video")
        #expect(gone.artwork == .icon("video-x-generic-symbolic"))
    }

    @Test func aWebLinkShowsItsHostAndPath() {
        let preview = preview([URL(string: "https://www.swift.org/documentation/api-design-guidelines/?x=1")!])
        #expect(preview.title == "swift.org/documentation/api-design-guidelines")
        #expect(preview.summary == "Link to swift.org")
        #expect(preview.artwork == .icon("web-browser-symbolic"))
        #expect(preview.byteCount == nil)

        let long = URL(string: "https://example.com/" + String(repeating: "segment/", count: 10))!
        let shortened = self.preview([long]).title
        #expect(shortened.count == 60)
        #expect(shortened.hasPrefix("example.com/segment/segment/"))
        #expect(shortened.hasSuffix("…"))
    }

    @Test func otherLinksShowWhatTheyPointAt() {
        let mail = preview([URL(string: "mailto:ana@example.com?subject=Hi")!])
        #expect(mail.title == "ana@example.com")
        #expect(mail.summary == "Email address")
        #expect(mail.artwork == .icon("mail-unread-symbolic"))
        let phone = preview([URL(string: "tel:+44%2020%207946%200000")!])
        #expect(phone.title == "+44 20 7946 0000")
        #expect(phone.summary == "Phone number")
        #expect(phone.artwork == .icon("call-start-symbolic"))
    }

    @Test func textShowsItsFirstLineShortened() {
        let short = preview(["See you at 6\nBring the maps"])
        #expect(short.title == "See you at 6")
        #expect(short.summary == "Text, 27 characters")
        #expect(short.artwork == .icon("text-x-generic-symbolic"))

        let line = "A very long first line that goes on and on about the weather in Lisbon today"
        let long = preview(["\n  " + line + "\nsecond line"])
        #expect(long.title == "A very long first line that goes on and on about the weathe…")
        #expect(long.title.count == 60)
        #expect(long.summary == "Text, \(line.count + 3 + 12) characters")
        #expect(preview(["x"]).summary == "Text, 1 character")
        #expect(preview([AttributedString("Bold move")]).title == "Bold move")
    }

    @Test func imagesInMemoryAreTheirOwnPicture() throws {
        let bytes = SampleBytes.png
        let image = try #require(Image(data: bytes))
        let preview = preview([image])
        #expect(preview.title == "Image")
        #expect(preview.summary == "PNG image, \(bytes.count) bytes")
        #expect(preview.artwork == .imageData(bytes))

        let named = self.preview([DataItem(data: SampleBytes.jpeg, filename: "scan.jpg")])
        #expect(named.title == "scan.jpg")
        #expect(named.summary == "JPEG image, 44 bytes")
        #expect(named.artwork == .imageData(SampleBytes.jpeg))
    }

    // MARK: Link metadata

    @Test func linkMetadataGivesTitleThenImageThenIcon() throws {
        let page = URL(string: "https://swift.org/blog/")!
        let image = Image(data: SampleBytes.png, type: .png)
        let icon = Image(data: SampleBytes.jpeg, type: .jpeg)

        let full = MetadataSource(placeholder: page, title: "  Swift.org Blog\n", image: image, icon: icon)
        let withImage = preview([full])
        #expect(withImage.title == "Swift.org Blog")
        #expect(withImage.summary == "Link to swift.org")
        #expect(withImage.artwork == .imageData(SampleBytes.png))

        let iconOnly = MetadataSource(placeholder: page, title: "Swift.org Blog", image: Image(), icon: icon)
        #expect(preview([iconOnly]).artwork == .imageData(SampleBytes.jpeg))

        let untitled = MetadataSource(placeholder: page, title: "", image: nil, icon: nil)
        #expect(preview([untitled]).title == "swift.org/blog")
        #expect(preview([untitled]).artwork == .icon("web-browser-symbolic"))

        let described = MetadataSource(placeholder: page, title: "Blog", image: nil, icon: nil, summary: "Posts from the Swift team")
        #expect(preview([described]).summary == "Posts from the Swift team")
    }

    @Test func aSourcesImageFileIsDrawnFromTheFile() throws {
        let folder = try PreviewFolder()
        let cover = try folder.file("cover.png", size: 900, startingWith: SampleBytes.png)
        let image = try #require(Image(contentsOfFile: cover.path))
        let source = MetadataSource(placeholder: "Chapter one", title: "My Book", image: image, icon: nil)
        let preview = preview([source])
        #expect(preview.title == "My Book")
        #expect(preview.summary == "Text, 11 characters")
        #expect(preview.artwork == .imageFile(cover))
    }

    // MARK: Providers

    @Test func aProviderIsPreviewedByItsPlaceholderWithoutRunning() async throws {
        let ran = Ran()
        let subclass = TrapProvider(placeholderItem: Image(), ran: ran)
        let closure = ActivityItemProvider(placeholder: URL(string: "https://example.com/large.zip")!) { _, _ in
            ran.mark("closure provider")
            return nil
        }
        let controller = ActivityViewController(
            activityItems: [subclass, closure], applicationActivities: nil, registry: registry)
        let preview = SharePreview(controller: controller)
        let single = SharePreview(previews: [controller.sheet.previews[0]])
        #expect(single.title == "Image")
        #expect(single.summary == "Image")
        #expect(single.artwork == .icon("image-x-generic-symbolic"))
        #expect(preview.title == "2 items")
        #expect(preview.summary == "1 photo, 1 link")

        // Give a wrongly started provider time to show itself.
        try await Task.sleep(for: .milliseconds(200))
        #expect(ran.names.isEmpty, "provider work ran while the preview was made: \(ran.names)")
        #expect(!subclass.isExecuting && !subclass.isFinished)
        #expect(!closure.isExecuting && !closure.isFinished)
        #expect(controller.phase == .idle)
    }

    // MARK: Several items

    @Test func severalFilesAreCountedAndSized() throws {
        let folder = try PreviewFolder()
        let files = [
            try folder.file("a.pdf", size: 12_000_000, startingWith: SampleBytes.pdf),
            try folder.file("notes.txt", size: 345_000),
            try folder.file("b.png", size: 678, startingWith: SampleBytes.png),
        ]
        let preview = preview(files)
        #expect(preview.title == "3 files")
        #expect(preview.summary == "2 files, 1 photo, 12.3 MB")
        #expect(preview.artwork == .icon("emblem-documents-symbolic"))
        #expect(preview.byteCount == 12_345_678)
    }

    @Test func severalPhotosShowTheFirstOne() throws {
        let folder = try PreviewFolder()
        let first = try folder.file("1.png", size: 1_000_000, startingWith: SampleBytes.png)
        let second = try folder.file("2.jpg", size: 1_500_000, startingWith: SampleBytes.jpeg)
        let preview = preview([first, second])
        #expect(preview.title == "2 photos")
        #expect(preview.summary == "2 photos, 2.5 MB")
        #expect(preview.artwork == .imageFile(first))
        #expect(self.preview([second, Image(data: SampleBytes.png, type: .png)]).artwork == .imageFile(second))
    }

    @Test func severalLinksTextsAndMixtures() throws {
        let links = preview([
            URL(string: "https://swift.org/a")!, URL(string: "https://www.swift.org/b")!,
            URL(string: "https://example.com")!,
        ])
        #expect(links.title == "3 links")
        #expect(links.summary == "Links to swift.org and example.com")
        #expect(links.artwork == .icon("web-browser-symbolic"))
        let many = preview(["a", "b", "c", "d"].map { URL(string: "https://\($0).org")! })
        #expect(many.summary == "Links to a.org, b.org and 2 more")

        let texts = preview(["one", "two"])
        #expect(texts.title == "2 texts")
        #expect(texts.summary == "2 texts, 6 characters")
        #expect(texts.artwork == .icon("text-x-generic-symbolic"))

        let folder = try PreviewFolder()
        let file = try folder.file("list.txt", size: 5)
        let mixed = preview([file, URL(string: "https://swift.org")!, "hello", "again"])
        #expect(mixed.title == "4 items")
        #expect(mixed.summary == "1 file, 1 link, 2 texts, 5 bytes")
        #expect(mixed.artwork == .icon("emblem-documents-symbolic"))

        let video = try folder.file("clip.mp4", size: 2_000)
        let media = preview([video, try folder.file("still.png", size: 10, startingWith: SampleBytes.png)])
        #expect(media.title == "2 photos and videos")
        #expect(media.summary == "1 video, 1 photo, 2.0 kB")
    }

    // MARK: Sizes

    /// Each size and what GLib 2.74's `g_format_size` printed for it on Debian 12.
    @Test func sizesAreWrittenAsGLibWritesThem() {
        let glib: [(Int64, String)] = [
            (0, "0 bytes"), (1, "1 byte"), (2, "2 bytes"), (999, "999 bytes"), (1000, "1.0 kB"), (1049, "1.0 kB"),
            (1051, "1.1 kB"), (9949, "9.9 kB"), (9999, "10.0 kB"), (10000, "10.0 kB"), (999_949, "999.9 kB"),
            (999_999, "1000.0 kB"), (2_100_000, "2.1 MB"), (12_000_000, "12.0 MB"), (12_345_678, "12.3 MB"),
            (1_000_000_000, "1.0 GB"), (123_456_789_012, "123.5 GB"), (Int64.max, "9.2 EB"),
        ]
        for (size, expected) in glib {
            #expect(ByteCountFormat.string(size) == expected, "\(size)")
        }
    }

    // MARK: Icons

    nonisolated private static let adwaita = URL(fileURLWithPath: "/usr/share/icons/Adwaita")
    nonisolated private static let repositoryIcons = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources/icons/hicolor/scalable/actions")

    /// The symbolic icon files named `name` in Adwaita's scalable folders.
    private static func adwaitaHas(_ name: String) -> Bool {
        let scalable = adwaita.appendingPathComponent("scalable")
        let contexts = (try? FileManager.default.contentsOfDirectory(atPath: scalable.path)) ?? []
        return contexts.contains {
            FileManager.default.fileExists(atPath: scalable.appendingPathComponent("\($0)/\(name).svg").path)
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: adwaita.path), "adwaita-icon-theme is installed"))
    func everyPreviewIconIsInAdwaita() {
        for name in PreviewIcon.all {
            #expect(Self.adwaitaHas(name), "\(name) is not in \(Self.adwaita.path)")
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: adwaita.path), "adwaita-icon-theme is installed"))
    func everyActivityIconHasASymbolicFile() {
        for name in Set(ActivityNames.iconNames.values).union([ActivityNames.fallbackIconName]) {
            let ours = Self.repositoryIcons.appendingPathComponent("\(name)-symbolic.svg")
            if name.hasPrefix("sharesheet-") {
                #expect(FileManager.default.fileExists(atPath: ours.path), "\(ours.path) is missing")
            } else {
                #expect(Self.adwaitaHas("\(name)-symbolic"), "\(name)-symbolic is not in Adwaita")
            }
        }
    }

    @Test func ourIconsAreSymbolic16PixelSVGsInOneColour() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.repositoryIcons.path).sorted()
        #expect(files.count == ActivityNames.iconNames.values.filter { $0.hasPrefix("sharesheet-") }.count)
        for file in files {
            #expect(file.hasPrefix("sharesheet-") && file.hasSuffix("-symbolic.svg"), "\(file)")
            let data = try Data(contentsOf: Self.repositoryIcons.appendingPathComponent(file))
            let reader = SVGReader()
            let parser = XMLParser(data: data)
            parser.delegate = reader
            #expect(parser.parse(), "\(file): \(parser.parserError.map(String.init(describing:)) ?? "")")
            #expect(reader.root == "svg", "\(file)")
            #expect(reader.viewBox == "0 0 16 16", "\(file)")
            #expect(reader.shapes > 0, "\(file) draws nothing")
            #expect(reader.fills.subtracting(["#2e3436", "none"]).isEmpty, "\(file): fills \(reader.fills)")
            #expect(reader.fills.contains("#2e3436"), "\(file)")
            #expect(reader.strokes.subtracting(["none"]).isEmpty, "\(file): strokes \(reader.strokes)")
        }
    }

    // MARK: Icon folders

    @Test func anInstalledProgramFindsItsShareIcons() throws {
        let folder = try PreviewFolder()
        let program = try folder.file("prefix/bin/share", size: 1)
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("prefix/share/icons/hicolor"), withIntermediateDirectories: true)
        #expect(IconFolders.searchPaths(executable: program) == [folder.url.appendingPathComponent("prefix/share/icons").path])
    }

    @Test func aBuiltProgramFindsTheSourceTreesIcons() throws {
        let folder = try PreviewFolder()
        let program = try folder.file("repo/.build/x86_64-unknown-linux-gnu/debug/share", size: 1)
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("repo/Resources/icons/hicolor/scalable/actions"),
            withIntermediateDirectories: true)
        #expect(IconFolders.searchPaths(executable: program) == [folder.url.appendingPathComponent("repo/Resources/icons").path])

        let lonely = try folder.file("elsewhere/bin/share", size: 1)
        #expect(IconFolders.searchPaths(executable: lonely) == [])
    }

    @Test func thisTestProgramFindsTheRepositorysIcons() {
        let paths = IconFolders.searchPaths()
        let expected = Self.repositoryIcons.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().standardizedFileURL.path
        #expect(paths.contains(expected), "\(IconFolders.currentExecutable.path) → \(paths)")
    }
}

// MARK: - Helpers

/// A folder under the temporary directory, removed when the test's value goes away, with the
/// files the preview tests make.
private final class PreviewFolder {
    let url: URL

    init() throws {
        url = try TemporaryFolder.make("preview")
    }

    deinit { TemporaryFolder(existing: url).remove() }

    /// A file of `size` bytes (a sparse tail after `prefix`) at `path` inside the folder.
    func file(_ path: String, size: Int, startingWith prefix: Data = Data()) throws -> URL {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try prefix.prefix(size).write(to: file)
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(size))
        return file
    }
}

/// A source whose link metadata the tests choose.
@MainActor
private final class MetadataSource: ActivityItemSource {
    let placeholder: Any
    let metadata = LinkMetadata()

    init(placeholder: Any, title: String?, image: Image?, icon: Image?, summary: String? = nil) {
        self.placeholder = placeholder
        metadata.title = title
        metadata.image = image
        metadata.icon = icon
        metadata.summary = summary
    }

    func activityViewControllerPlaceholderItem(_ activityViewController: ActivityViewController) -> Any { placeholder }

    func activityViewController(
        _ activityViewController: ActivityViewController, itemForActivityType activityType: ActivityType?
    ) -> Any? {
        Issue.record("the preview asked a source for its item")
        return placeholder
    }

    func activityViewControllerLinkMetadata(_ activityViewController: ActivityViewController) -> LinkMetadata? {
        metadata
    }
}

/// Names of provider work that ran.
private final class Ran: Sendable {
    private let ran = Mutex<[String]>([])
    func mark(_ name: String) { ran.withLock { $0.append(name) } }
    var names: [String] { ran.withLock { $0 } }
}

/// A provider whose work fails the test if it ever runs.
private final class TrapProvider: ActivityItemProvider, @unchecked Sendable {
    let ran: Ran

    init(placeholderItem: Any, ran: Ran) {
        self.ran = ran
        super.init(placeholderItem: placeholderItem)
    }

    override var item: Any {
        ran.mark("subclass provider")
        Issue.record("the preview started a provider's work")
        return NSNull()
    }
}

/// What an SVG's elements say about their root, view box, fills and strokes.
private final class SVGReader: NSObject, XMLParserDelegate {
    var root: String?
    var viewBox: String?
    var fills = Set<String>()
    var strokes = Set<String>()
    var shapes = 0

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if root == nil {
            root = elementName
            viewBox = attributes["viewBox"]
        }
        if ["path", "circle", "ellipse", "rect", "polygon", "polyline", "line"].contains(elementName) {
            shapes += 1
            fills.insert(attributes["fill"]?.lowercased() ?? "(default black)")
        }
        if let fill = attributes["fill"] { fills.insert(fill.lowercased()) }
        if let stroke = attributes["stroke"] { strokes.insert(stroke.lowercased()) }
        if let style = attributes["style"] { strokes.insert("style=\(style)") }
    }
}

/// `make install-icons` puts every icon where an installed program's `IconFolders` looks.
@MainActor
@Suite struct IconInstallTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/make"), "make is installed"))
    func installedIconsAreFoundBesideTheInstalledProgram() throws {
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let prefix = try TemporaryFolder.make("icons")
        defer { TemporaryFolder(existing: prefix).remove() }
        let make = try Command.run("/usr/bin/make", ["-s", "-C", repository.path, "install-icons", "PREFIX=\(prefix.path)"])
        #expect(make.status == 0, "\(make)")

        let actions = prefix.appendingPathComponent("share/icons/hicolor/scalable/actions")
        let installed = try FileManager.default.contentsOfDirectory(atPath: actions.path).sorted()
        let ours = ActivityNames.iconNames.values.filter { $0.hasPrefix("sharesheet-") }.map { "\($0)-symbolic.svg" }
        #expect(installed == ours.sorted())
        for file in installed {
            let attributes = try FileManager.default.attributesOfItem(atPath: actions.appendingPathComponent(file).path)
            #expect((attributes[.posixPermissions] as? Int) == 0o644, "\(file)")
        }
        let program = prefix.appendingPathComponent("bin/share")
        #expect(IconFolders.searchPaths(executable: program) == [prefix.appendingPathComponent("share/icons").path])
    }
}
