// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ShareSheet",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "ShareSheet", targets: ["ShareSheet"]),
        .library(name: "UniformTypes", targets: ["UniformTypes"]),
        .library(name: "ShareSheetUIKit", targets: ["ShareSheetUIKit"]),
        .library(name: "ShareSheetTesting", targets: ["ShareSheetTesting"]),
        .library(name: "ShareSheetTerminal", targets: ["ShareSheetTerminal"]),
        .library(name: "ShareSheetBuiltins", targets: ["ShareSheetBuiltins"]),
        .library(name: "ShareSheetSystem", targets: ["ShareSheetSystem"]),
        .library(name: "Sharing", targets: ["Sharing"]),
        .library(name: "ShareSheetGTK", targets: ["ShareSheetGTK"]),
        .library(name: "MainLoop", targets: ["MainLoop"]),
        .library(name: "ShareService", targets: ["ShareService"]),
        .library(name: "ShareSheetClient", targets: ["ShareSheetClient"]),
        .library(name: "ShareTargets", targets: ["ShareTargets"]),
        // Each backend as a plain API for applications (SPEC §3: Workspace.open, ReadingList.default,
        // PhotoLibrary.save, MailComposer…), not only through a sheet.
        .library(name: "OpenIn", targets: ["OpenIn"]),
        .library(name: "ReadingList", targets: ["ReadingList"]),
        .library(name: "Mail", targets: ["Mail"]),
        .library(name: "Printing", targets: ["Printing"]),
        .library(name: "PhotoLibrary", targets: ["PhotoLibrary"]),
        .library(name: "Contacts", targets: ["Contacts"]),
        .library(name: "Pasteboard", targets: ["Pasteboard"]),
        .library(name: "Nearby", targets: ["Nearby"]),
        .library(name: "Social", targets: ["Social"]),
        .library(name: "ShareHistory", targets: ["ShareHistory"]),
        .library(name: "ShareSuggestions", targets: ["ShareSuggestions"]),
        .executable(name: "share", targets: ["share"]),
        .executable(name: "sharesheet-service", targets: ["sharesheet-service"]),
        .executable(name: "share-bench", targets: ["share-bench"]),
    ],
    targets: [
        // C libraries, wrapped once each.
        .systemLibrary(
            name: "CGIO", path: "Sources/CGIO", pkgConfig: "gio-unix-2.0",
            providers: [.apt(["libglib2.0-dev"])]),

        // GMime, libsoup and libsecret: C targets whose include/ links to the -dev package's headers,
        // and libcurl, OpenSSL and CUPS: system libraries without pkg-config. None adds a -l flag:
        // CLazyLibraries defines their functions and loads each library on its first call.
        .target(name: "CGMime", dependencies: ["CGIO", "CLazyLibraries"]),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "CCurlShims", dependencies: ["CCurl", "CLazyLibraries"]),
        // The one libcurl client (Mail's SMTP, AirDrop's LocalSend requests, the posting services):
        // request building, streamed bodies, MIME forms, progress, cancellation, CURLcode errors.
        .target(name: "CurlClient", dependencies: ["CCurl", "CCurlShims", "CLazyLibraries"]),
        // libcurl, libcups, GMime, libsecret, libsoup and OpenSSL loaded on their first call, not
        // at every start (see clazy_libraries.h); a dependency of each of their wrappers.
        .target(name: "CLazyLibraries", linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", providers: [.apt(["libssl-dev"])]),
        .target(name: "CSoup", dependencies: ["CGIO", "CLazyLibraries"]),
        .target(name: "CSoupShims", dependencies: ["CSoup", "CLazyLibraries"]),

        .systemLibrary(
            name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo-pdf",
            providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(
            name: "CPango", path: "Sources/CPango", pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev"])]),
        // Print's preview draws the first pages of the PDF that will be printed, with poppler-glib
        // loaded on first use, not linked (see cpoppler_shims.h).
        .target(name: "CPopplerShims", linkerSettings: [.linkedLibrary("dl")]),
        // CUPS ships no .pc file; CLazyLibraries loads libcups.
        .systemLibrary(name: "CCups", path: "Sources/CCups", providers: [.apt(["libcups2-dev"])]),
        .systemLibrary(
            name: "CGdkPixbuf", path: "Sources/CGdkPixbuf", pkgConfig: "gdk-pixbuf-2.0",
            providers: [.apt(["libgdk-pixbuf-2.0-dev"])]),
        .target(name: "CSecret", dependencies: ["CGIO", "CLazyLibraries"]),
        // libedit: line editing and history in the terminal sheet's fields.
        .systemLibrary(name: "CEdit", path: "Sources/CEdit", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
        // Linux calls Glibc hides without _GNU_SOURCE (O_TMPFILE, copy_file_range, SEEK_DATA).
        .target(name: "CGlibcShims"),
        .systemLibrary(name: "CX11", path: "Sources/CX11", pkgConfig: "x11", providers: [.apt(["libx11-dev"])]),
        // GTK 4 and libadwaita for the window: the libraries through pkg-config, and a C target
        // that declares the casts and variadic calls Swift cannot spell in its header and
        // defines them in shim.c (XSetTransientForHint needs libX11).
        .systemLibrary(
            name: "CGtkSystem", path: "Sources/CGtkSystem", pkgConfig: "libadwaita-1",
            providers: [.apt(["libgtk-4-dev", "libadwaita-1-dev"])]),
        .target(name: "CGtk", dependencies: ["CGtkSystem"], linkerSettings: [.linkedLibrary("X11")]),
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "CSQLiteShims", dependencies: ["CSQLite"]),
        // The one SQLite wrapper, for the reading list and the share history: connections,
        // statements, transactions, migrations, and a debug-only hook that makes calls fail.
        // `package` access: not an API of the products.
        .target(name: "SQLiteStore", dependencies: ["ShareSheet", "CSQLite", "CSQLiteShims"]),

        // GLib's GError as one Swift error (call, domain, code, message), for every GLib user.
        .target(name: "GLibErrors", dependencies: ["CGIO"]),
        // GObject signals connected to Swift closures under one ownership rule, for every GObject
        // user (the window, the contacts' image loader, the share targets' monitors, the receiver).
        .target(name: "GSignals", dependencies: ["CGIO"]),
        // The Secret Service (libsecret) under one set of rules, for the SMTP password and posting tokens.
        .target(name: "Secrets", dependencies: ["CSecret", "CGIO", "GLibErrors", "CLazyLibraries"]),

        // Uniform type identifiers backed by shared-mime-info through GIO.
        .target(name: "UniformTypes", dependencies: ["CGIO"]),

        // The share-sheet model: pure Swift, no C module.
        .target(name: "ShareSheet", dependencies: ["UniformTypes", "CurlClient", "CCurl"]),

        // What every backend needs from the desktop: XDG folders, the configuration file,
        // atomic writes.
        .target(name: "ShareSheetSystem", dependencies: ["ShareSheet", "CGIO", "GLibErrors", "GSignals"]),

        // The UI-prefixed names, so UIKit share code ports by changing one import.
        // Its UIActivityViewController initializer offers every built-in, as on iOS.
        .target(name: "ShareSheetUIKit", dependencies: ["ShareSheet", "OpenIn", "ShareSheetBuiltins"]),

        // In-memory backends and fake activities for tests (ours and our users').
        .target(name: "ShareSheetTesting", dependencies: ["ShareSheet"]),

        // GLib's main loop on the main thread with the main actor inside it (window, service).
        .target(name: "MainLoop", dependencies: ["CGIO"]),

        // The sheet as a desktop window: GTK 4 and libadwaita through their C API.
        .target(name: "ShareSheetGTK", dependencies: ["ShareSheet", "ShareSheetSystem", "Sharing", "Secrets", "CGtk", "GSignals"]),

        // GVariant values made and read without GLib's variadic calls (the service, share targets).
        .target(name: "GVariants", dependencies: ["CGIO"]),
        // GDBus under one set of rules (connections, calls with descriptors, exported objects,
        // names, signals), for the service, its front, the client, the command and share targets.
        .target(name: "DBus", dependencies: ["CGIO", "GVariants", "GLibErrors"]),
        // The share service on the session bus (SPEC §8): GDBus, requests, descriptors.
        .target(
            name: "ShareService",
            dependencies: [
                "ShareSheet", "Sharing", "ShareSheetGTK", "CGIO", "MainLoop", "ShareServiceProtocol", "GVariants", "GLibErrors", "DBus",
                "ShareHistory",
            ]),
        // The service's wire format (SPEC §11): names, paths, interface texts, and the encoding and
        // decoding of every message, as plain Swift values over GVariants. Nothing of the sheet.
        .target(name: "ShareServiceProtocol", dependencies: ["GVariants"]),
        // What D-Bus activation starts: GIO only, answers at once, hands over to `share --service`.
        .executableTarget(name: "sharesheet-service", dependencies: ["CGIO", "ShareServiceProtocol", "GVariants", "GLibErrors", "DBus"]),

        // Applications share through the service: `try await ShareClient().share(items, options)`.
        .target(
            name: "ShareSheetClient",
            dependencies: ["ShareSheet", "Sharing", "ShareServiceProtocol", "GVariants", "CGIO", "GLibErrors", "DBus"]),

        // The interactive terminal sheet.
        // It shows activities by the names the share layer gives them (Sharing's ActivityNames).
        .target(name: "ShareSheetTerminal", dependencies: ["ShareSheet", "Sharing"]),

        // Registers every backend module's built-in activities, and the share targets, with the registry.
        .target(name: "ShareSheetBuiltins", dependencies: ["ShareSheet", "Sharing", "OpenIn", "ReadingList", "PhotoLibrary", "Mail", "Nearby", "Contacts", "Pasteboard", "Printing", "Social", "ShareTargets", "PhotoPreparation", "ShareSheetSystem", "UniformTypes"]),
        // Share targets (SPEC §9): applications join the sheet with a desktop entry; reached over
        // D-Bus (org.sharesheet.Target1) or by launching their Exec= line.
        .target(
            name: "ShareTargets",
            dependencies: ["ShareSheet", "ShareSheetSystem", "UniformTypes", "CGIO", "GVariants", "ShareServiceProtocol", "GLibErrors", "DBus", "GSignals"]),

        // The share layer every front end calls: item resolution, activity names, presets, results.
        // Front-end neutral and backend free: the window links no backend through it (#24).
        .target(name: "Sharing", dependencies: ["ShareSheet", "ShareSheetSystem", "UniformTypes", "ShareServiceProtocol"]),

        // The command line: argument parsing and outcome → exit code, as a library so it is testable.
        .target(
            name: "ShareCommand",
            dependencies: ["ShareSheet", "ShareSheetSystem", "Sharing", "ShareSheetTerminal", "ShareSheetGTK", "ShareService", "ShareServiceProtocol", "GVariants", "ShareSheetBuiltins", "UniformTypes", "OpenIn", "ReadingList", "Mail", "Contacts", "Pasteboard", "Social", "Nearby", "ShareTargets", "CEdit", "GLibErrors", "DBus", "ShareHistory", "ShareSuggestions", "Printing"]),
        // Mail (GMime + libcurl SMTP, Maildir outbox) and Message (sms: hand-off, outbox).
        .target(
            name: "Mail",
            dependencies: [
                "ShareSheet", "ShareSheetSystem", "UniformTypes", "CGMime", "CCurl", "CurlClient", "CGIO", "GLibErrors", "Secrets", "CLazyLibraries",
            ]),
        // Print: Cairo + Pango render to PDF, CUPS prints, Save as PDF without a printer.
        .target(
            name: "Printing",
            dependencies: ["ShareSheet", "ShareSheetSystem", "UniformTypes", "CCairo", "CPango", "CCups", "CGdkPixbuf", "CPopplerShims", "GLibErrors", "CLazyLibraries"]),
        // Open In and URL routing through the desktop's own applications (GIO app info).
        .target(name: "OpenIn", dependencies: ["ShareSheet", "ShareSheetSystem", "UniformTypes", "CGIO", "GLibErrors"]),
        // AirDrop over LocalSend v2.1: multicast discovery, HTTPS sender (libcurl, certificate pinned
        // by fingerprint through OpenSSL), receiver (libsoup).
        .target(
            name: "Nearby",
            dependencies: [
                "ShareSheet", "ShareSheetSystem", "UniformTypes", "CCurl", "CurlClient", "COpenSSL", "CSoup",
                "CSoupShims", "CGIO", "GLibErrors", "GSignals", "CLazyLibraries",
            ]),
        // Copy: the general pasteboard on the Wayland or X11 clipboard, or a file without a display.
        .target(
            name: "Pasteboard",
            dependencies: ["ShareSheet", "ShareSheetSystem", "UniformTypes", "CGdkPixbuf", "CGlibcShims", "GLibErrors"]),
        // The X11 clipboard owner Copy starts: serves every representation of the copied item.
        .executableTarget(name: "sharesheet-clipboard-owner", dependencies: ["CX11"]),
        // Save to Photos: XDG Pictures and Videos, streamed byte-for-byte copies, unique names.
        .target(name: "PhotoLibrary", dependencies: ["ShareSheet", "ShareSheetSystem", "UniformTypes", "CGlibcShims"]),
        // Add to Reading List: a SQLite store (WAL, versioned schema), Netscape bookmark HTML and JSON.
        .target(name: "ReadingList", dependencies: ["ShareSheet", "ShareSheetSystem", "SQLiteStore"]),
        // The share history the person owns (SPEC §12): a SQLite store (WAL), one transaction per
        // finished share, never item contents; recorded by the command and the service.
        .target(
            name: "ShareHistory", dependencies: ["ShareSheet", "ShareSheetSystem", "Sharing", "UniformTypes", "SQLiteStore"]),
        // Suggestions and the activity order (SPEC §12): the history's ranking, the contacts and
        // the pinned devices, as a source every front end's controller is given.
        .target(name: "ShareSuggestions", dependencies: ["ShareSheet", "ShareSheetSystem", "ShareHistory", "Contacts", "OpenIn"]),
        // Posting: Mastodon, X, Facebook, Weibo, Flickr (OAuth 1.0a), Vimeo (tus); accounts in the
        // Secret Service (libsecret) with a 0600 file fallback; web share pages through OpenIn.
        .target(
            name: "Social",
            dependencies: ["ShareSheet", "ShareSheetSystem", "UniformTypes", "OpenIn", "Secrets", "CGIO", "CCurl", "CurlClient"]),
        // Assign to Contact: a vdir folder of vCards (khard/vdirsyncer), photos scaled with gdk-pixbuf.
        .target(name: "Contacts", dependencies: ["ShareSheet", "ShareSheetSystem", "CGdkPixbuf", "GSignals"]),
        .executableTarget(name: "share", dependencies: ["ShareCommand", "MainLoop"]),
        .executableTarget(
            name: "share-bench",
            dependencies: [
                "ShareSheet", "ShareSheetTesting", "ReadingList", "PhotoLibrary", "Printing",
                "ShareSheetBuiltins", "ShareTargets", "ShareHistory", "ShareSuggestions", "Contacts",
                "PhotoPreparation",
            ]),

        .testTarget(name: "MailTests", dependencies: ["Mail", "ShareSheet", "ShareSheetSystem", "LocalTestSupport", "share"]),
        .testTarget(
            name: "PrintingTests",
            dependencies: ["Printing", "ShareSheet", "ShareSheetSystem", "ShareSheetTerminal", "CCairo", "LocalTestSupport", "share"]),
        .testTarget(name: "OpenInTests", dependencies: ["OpenIn", "ShareSheet", "ShareSheetSystem", "LocalTestSupport", "share"]),
        .testTarget(name: "NearbyTests", dependencies: ["Nearby", "ShareSheet", "ShareSheetSystem", "LocalTestSupport", "share"]),
        // What every test target that touches files or processes shares: temporary folders and
        // homes, running `share` and other programs, reaping them by PID, and the test peers.
        .target(name: "LocalTestSupport", path: "Tests/LocalTestSupport"),
        .testTarget(
            name: "PasteboardTests",
            dependencies: [
                "Pasteboard", "ShareSheet", "ShareSheetSystem", "LocalTestSupport", "share",
                "sharesheet-clipboard-owner",
            ]),
        .testTarget(
            name: "PhotoLibraryTests",
            dependencies: ["PhotoLibrary", "ShareSheet", "ShareSheetSystem", "CGlibcShims", "LocalTestSupport", "share"]),
        .testTarget(
            name: "ReadingListTests",
            dependencies: ["ReadingList", "ShareSheet", "ShareSheetSystem", "LocalTestSupport", "share", "reading-list-writer"]),
        // A second process for the reading list's concurrency test: adds URLs one transaction each.
        .executableTarget(name: "reading-list-writer", dependencies: ["ReadingList"], path: "Tests/ReadingListWriter"),
        .testTarget(name: "SocialTests", dependencies: ["Social", "ShareSheet", "ShareSheetSystem", "LocalTestSupport", "share"]),
        .testTarget(
            name: "ContactsTests", dependencies: ["Contacts", "ShareSheet", "ShareSheetSystem", "CGdkPixbuf", "LocalTestSupport", "share"]),
        // An application of our own that shows the window with providers the tests control.
        .executableTarget(
            name: "sheet-window-app", dependencies: ["ShareSheet", "ShareSheetGTK", "Sharing", "ShareSheetBuiltins", "MainLoop"],
            path: "Tests/SheetWindowApp"),
        // The window under Xvfb, driven through AT-SPI as assistive technology drives it.
        .testTarget(
            name: "WindowTests",
            dependencies: ["LocalTestSupport", "share", "sheet-window-app", "sharesheet-clipboard-owner"]),
        // The share service on a private session bus, called by Python clients with descriptors.
        .testTarget(
            name: "ServiceTests",
            dependencies: [
                "LocalTestSupport", "ShareService", "ShareServiceProtocol", "GVariants", "ShareSheetClient", "Sharing", "share",
                "sharesheet-service", "sheet-window-app", "ShareHistory", "ShareSheetSystem", "ShareSheet",
                "sharesheet-clipboard-owner",
            ]),
        // Share targets: desktop entries in a test's own XDG folders, Exec= targets, and D-Bus
        // targets (the Python example) on a private session bus.
        .testTarget(
            name: "ShareTargetsTests",
            dependencies: [
                "ShareTargets", "ShareSheet", "ShareSheetSystem", "ShareSheetTesting", "Sharing", "UniformTypes", "CGIO",
                "LocalTestSupport", "share", "sharesheet-service",
            ]),
        .testTarget(name: "UniformTypesTests", dependencies: ["UniformTypes", "LocalTestSupport"]),
        .testTarget(name: "GLibErrorsTests", dependencies: ["GLibErrors", "CGIO"]),
        .testTarget(name: "GSignalsTests", dependencies: ["GSignals", "CGIO"]),
        .testTarget(name: "CurlClientTests", dependencies: ["CurlClient", "CCurl", "CLazyLibraries", "LocalTestSupport"]),
        .testTarget(name: "ShareSheetTests", dependencies: ["ShareSheet", "ShareSheetTesting", "LocalTestSupport"]),
        .testTarget(name: "ShareSheetSystemTests", dependencies: ["ShareSheetSystem", "ShareSheetBuiltins", "LocalTestSupport"]),
        .testTarget(name: "SharingTests", dependencies: ["Sharing", "ShareSheet", "ShareSheetTesting", "UniformTypes", "LocalTestSupport"]),
        .testTarget(name: "SeedExampleTests", dependencies: ["ShareSheetUIKit", "ShareSheetTesting", "OpenIn", "LocalTestSupport"]),
        // The contacts index and the suggestions' caches, in a temporary home.
        .testTarget(
            name: "ShareSuggestionsTests",
            dependencies: ["ShareSuggestions", "ShareHistory", "ShareSheet", "ShareSheetSystem", "ShareSheetTesting", "LocalTestSupport"]),
        .testTarget(
            name: "ShareCommandTests",
            dependencies: [
                "ShareCommand", "ShareSheetSystem", "ShareSheetTerminal", "ShareSheetTesting", "ShareSheetUIKit", "ShareSheetBuiltins",
                "ShareHistory", "ShareSuggestions", "LocalTestSupport", "share",
            ],
            exclude: ["__Snapshots__"]),
    ]
)

// Fuzz targets (README, "Fuzzing"): plain programs that replay inputs in a normal build; `make
// fuzz` builds them with -DFUZZING and libFuzzer into .build-fuzz and runs each on a copy of its
// corpus in Tests/Fuzz/corpus.
package.targets += [
    .systemLibrary(name: "CFuzzerDriver", path: "Sources/Fuzz/CFuzzerDriver"),
    .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"], path: "Sources/Fuzz/FuzzSupport"),
    .executableTarget(name: "fuzz-vcard", dependencies: ["FuzzSupport", "Contacts"], path: "Sources/Fuzz/VCard"),
    .executableTarget(name: "fuzz-bookmarks", dependencies: ["FuzzSupport", "ReadingList"], path: "Sources/Fuzz/Bookmarks"),
    .executableTarget(name: "fuzz-localsend", dependencies: ["FuzzSupport", "Nearby"], path: "Sources/Fuzz/LocalSend"),
    .executableTarget(name: "fuzz-arguments", dependencies: ["FuzzSupport", "ShareCommand"], path: "Sources/Fuzz/Arguments"),
    .executableTarget(name: "fuzz-mime-headers", dependencies: ["FuzzSupport", "Mail"], path: "Sources/Fuzz/MIMEHeaders"),
]

// Preparing a photo to leave the machine (#27, the image half of "choose what is sent"): resized
// and converted with libvips, location and camera serials removed with gexiv2.
package.products += [.library(name: "PhotoPreparation", targets: ["PhotoPreparation"])]
package.targets += [
    // libvips' operations take their options as variadic name/value lists, and VIPS_INIT is a
    // macro; libvips itself is loaded with dlopen on first use, not linked (see cvips_shims.h).
    .target(name: "CVipsShims", linkerSettings: [.linkedLibrary("dl")]),
    // gexiv2 too: loaded on first use (see cgexiv2_shims.h).
    .target(name: "CGexiv2Shims", linkerSettings: [.linkedLibrary("dl")]),
    .target(name: "PhotoPreparation", dependencies: ["ShareSheet", "CVipsShims", "CGexiv2Shims", "CGIO", "GLibErrors"]),
    .testTarget(name: "PhotoPreparationTests", dependencies: ["PhotoPreparation", "ShareSheet", "LocalTestSupport"]),
]
