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
        .executable(name: "share", targets: ["share"]),
        .executable(name: "share-bench", targets: ["share-bench"]),
    ],
    targets: [
        // C libraries, wrapped once each.
        .systemLibrary(
            name: "CGIO", path: "Sources/CGIO", pkgConfig: "gio-2.0",
            providers: [.apt(["libglib2.0-dev"])]),

        // Uniform type identifiers backed by shared-mime-info through GIO.
        .target(name: "UniformTypes", dependencies: ["CGIO"]),

        // The share-sheet model: pure Swift, no C module.
        .target(name: "ShareSheet", dependencies: ["UniformTypes"]),

        // What every backend needs from the desktop: XDG folders, the configuration file,
        // atomic writes.
        .target(name: "ShareSheetSystem", dependencies: ["ShareSheet", "CGIO"]),

        // The UI-prefixed names, so UIKit share code ports by changing one import.
        .target(name: "ShareSheetUIKit", dependencies: ["ShareSheet"]),

        // In-memory backends and fake activities for tests (ours and our users').
        .target(name: "ShareSheetTesting", dependencies: ["ShareSheet"]),

        // The interactive terminal sheet.
        .target(name: "ShareSheetTerminal", dependencies: ["ShareSheet"]),

        // Registers every backend module's built-in activities with the registry.
        .target(name: "ShareSheetBuiltins", dependencies: ["ShareSheet"]),

        // The command line: argument parsing and outcome → exit code, as a library so it is testable.
        .target(
            name: "ShareCommand",
            dependencies: ["ShareSheet", "ShareSheetTerminal", "ShareSheetBuiltins", "UniformTypes"]),
        .executableTarget(name: "share", dependencies: ["ShareCommand"]),
        .executableTarget(name: "share-bench", dependencies: ["ShareSheet", "ShareSheetTesting"]),

        .testTarget(name: "UniformTypesTests", dependencies: ["UniformTypes"]),
        .testTarget(name: "ShareSheetTests", dependencies: ["ShareSheet", "ShareSheetTesting"]),
        .testTarget(name: "ShareSheetSystemTests", dependencies: ["ShareSheetSystem"]),
        .testTarget(name: "SeedExampleTests", dependencies: ["ShareSheetUIKit", "ShareSheetTesting"]),
        .testTarget(
            name: "ShareCommandTests",
            dependencies: [
                "ShareCommand", "ShareSheetTerminal", "ShareSheetTesting", "ShareSheetUIKit", "ShareSheetBuiltins",
                "share",
            ],
            exclude: ["__Snapshots__"]),
    ]
)

