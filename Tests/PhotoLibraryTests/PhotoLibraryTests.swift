import Foundation
import LocalTestSupport
import PhotoLibrary
import ShareSheet
import ShareSheetSystem
import Testing

@Suite("Save to Photos: the library API")
struct PhotoLibraryTests {
    private func library(_ home: TemporaryHome) -> PhotoLibrary {
        PhotoLibrary(picturesFolder: home.pictures, videosFolder: home.videos)
    }

    @Test("a PNG, a JPEG without extension and an MP4 land in the right folders, byte-identical")
    func kindsAndFolders() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let png = try home.file("sunset.png", Fixtures.png)
        let jpeg = try home.file("scan", Fixtures.jpeg)
        let mp4 = try home.file("clip.mp4", Fixtures.mp4(size: 300_000))
        let library = library(home)

        let savedPNG = try library.save(png)
        let savedJPEG = try library.save(jpeg)
        let savedMP4 = try library.save(mp4)

        #expect(savedPNG == home.pictures.appendingPathComponent("sunset.png"))
        #expect(savedJPEG == home.pictures.appendingPathComponent("scan.jpg"))
        #expect(savedMP4 == home.videos.appendingPathComponent("clip.mp4"))
        #expect(try sameContent(png, savedPNG))
        #expect(try sameContent(jpeg, savedJPEG))
        #expect(try sameContent(mp4, savedMP4))
        #expect(home.entries(home.pictures) == ["scan.jpg", "sunset.png"])
        #expect(home.entries(home.videos) == ["clip.mp4"])
    }

    @Test("the content decides, not the name: a JPEG called .mp4 is a photo, a text called .png is refused")
    func contentDecides() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let library = library(home)
        let disguisedJPEG = try home.file("holiday.mp4", Fixtures.jpeg)
        #expect(try library.kind(of: disguisedJPEG) == .photo)
        #expect(try library.save(disguisedJPEG) == home.pictures.appendingPathComponent("holiday.mp4.jpg"))

        let text = try home.file("notes.png", Data("just some words\n".utf8))
        let error = #expect(throws: ShareError.self) { try library.save(text) }
        #expect(error?.kind == .badData)
        #expect(error?.message.contains("notes.png: not an image or video") == true)
        #expect(home.entries(home.videos).isEmpty)
        #expect(home.entries(home.pictures) == ["holiday.mp4.jpg"])
    }

    @Test("a name clash yields a new name and the first file is untouched")
    func nameClash() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let library = library(home)
        let first = try home.file("photo.jpg", Fixtures.jpeg)
        #expect(try library.save(first) == home.pictures.appendingPathComponent("photo.jpg"))
        // A PNG also called photo.jpg, from another folder: same name, other content.
        let otherFolder = home.root.appendingPathComponent("other", isDirectory: true)
        try FileManager.default.createDirectory(at: otherFolder, withIntermediateDirectories: true)
        let second = otherFolder.appendingPathComponent("photo.jpg")
        try Fixtures.png.write(to: second)
        let savedSecond = try library.save(second)
        #expect(savedSecond == home.pictures.appendingPathComponent("photo 2.jpg"))
        let savedThird = try library.save(first)
        #expect(savedThird == home.pictures.appendingPathComponent("photo 3.jpg"))
        #expect(try Data(contentsOf: home.pictures.appendingPathComponent("photo.jpg")) == Fixtures.jpeg)
        #expect(try Data(contentsOf: savedSecond) == Fixtures.png)
    }

    @Test("an Image keeps its own encoding; Data and DataItem are saved as they are")
    func imagesAndData() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let library = library(home)
        let image = try #require(Image(data: Fixtures.jpeg))
        let saved = try library.save(image)
        #expect(saved.lastPathComponent == "Image.jpg")
        #expect(try Data(contentsOf: saved) == Fixtures.jpeg)
        let item = DataItem(data: Fixtures.mp4(size: 4096), filename: ".hidden clip.mp4")
        let savedItem = try library.save(item)
        #expect(savedItem == home.videos.appendingPathComponent("hidden clip.mp4"))
        #expect(try Data(contentsOf: savedItem) == Fixtures.mp4(size: 4096))
    }

    @Test("a 2 GB sparse video is copied byte-identical and stays sparse")
    func sparseVideo() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let source = try home.file("big.mp4", Fixtures.mp4Header)
        let handle = try FileHandle(forWritingTo: source)
        try handle.seek(toOffset: 1 << 30)
        try handle.write(contentsOf: Data("a block of data in the middle".utf8))
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()

        let progress = Progress(totalUnitCount: -1)
        let saved = try library(home).save(source, progress: progress)
        #expect(saved == home.videos.appendingPathComponent("big.mp4"))
        let attributes = try FileManager.default.attributesOfItem(atPath: saved.path)
        #expect((attributes[.size] as? NSNumber)?.int64Value == 2 << 30)
        #expect(progress.completedUnitCount == 2 << 30)
        #expect(try sameContent(source, saved))
        var info = stat()
        #expect(stat(saved.path, &info) == 0)
        #expect(Int64(info.st_blocks) * 512 < 64 << 20, "the copy should keep the holes")
    }

    @Test("a cancelled save leaves nothing in the library")
    func cancelled() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let source = try home.file("long.mp4", Fixtures.mp4(size: 20 << 20))
        let calls = Counter()
        let error = #expect(throws: ShareError.self) {
            try library(home).save(source, isCancelled: { calls.increment() > 1 })
        }
        #expect(error?.kind == .cancelled)
        #expect(home.entries(home.videos).isEmpty)
    }

    @Test("hidden partial files of processes that are gone are removed; a live process's are kept")
    func abandonedPartials() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let deadPID = try Command.deadPID()
        try FileManager.default.createDirectory(at: home.pictures, withIntermediateDirectories: true)
        let dead = home.pictures.appendingPathComponent(".sharesheet-partial-\(deadPID)-old")
        let alive = home.pictures.appendingPathComponent(".sharesheet-partial-\(getpid())-busy")
        try Data("half".utf8).write(to: dead)
        try Data("half".utf8).write(to: alive)
        _ = try library(home).save(try home.file("p.png", Fixtures.png))
        #expect(home.entries(home.pictures) == [alive.lastPathComponent, "p.png"])
    }

    @Test("the configured subfolder is used; one that climbs out is refused")
    func subfolder() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let directories = XDGDirectories(environment: home.environment)
        let library = try PhotoLibrary(directories: directories, configuration: Configuration(["photos": ["subfolder": "From Share/2026"]]))
        #expect(library.picturesFolder == home.pictures.appendingPathComponent("From Share/2026", isDirectory: true))
        #expect(library.videosFolder == home.videos.appendingPathComponent("From Share/2026", isDirectory: true))
        let bad = #expect(throws: ShareError.self) {
            try PhotoLibrary(directories: directories, configuration: Configuration(["photos": ["subfolder": "../elsewhere"]]))
        }
        #expect(bad?.kind == .badData)
    }

    @Test("user-dirs.dirs decides where Pictures and Videos are")
    func userDirs() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let config = home.home.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("XDG_PICTURES_DIR=\"$HOME/Bilder\"\nXDG_VIDEOS_DIR=\"$HOME/Filme\"\n".utf8)
            .write(to: config.appendingPathComponent("user-dirs.dirs"))
        let library = try PhotoLibrary(directories: XDGDirectories(environment: home.environment))
        #expect(library.picturesFolder.path == home.home.appendingPathComponent("Bilder").path)
        #expect(library.videosFolder.path == home.home.appendingPathComponent("Filme").path)
    }
}

/// A counter the cancellation closure can bump from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
