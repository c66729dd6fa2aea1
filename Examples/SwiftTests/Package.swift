// swift-tools-version: 6.1
import PackageDescription

// Golden tests of a Flipbook scene from a package of your own (docs/testing.md): Flipbook is a
// dependency like any other (here by path, from this repository; in your package by URL).
let package = Package(
    name: "FlipbookSwiftTestsExample",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Flipbook", path: "../..")
    ],
    targets: [
        // Swift Testing: `import FlipbookTesting`.
        .testTarget(
            name: "BoxSceneTests",
            dependencies: [.product(name: "FlipbookTesting", package: "Flipbook")],
            exclude: ["Scenes", "Goldens"]),
        // XCTest: `import FlipbookXCTest` (no Swift Testing needed).
        .testTarget(
            name: "BoxSceneXCTests",
            dependencies: [.product(name: "FlipbookXCTest", package: "Flipbook")]),
    ]
)
