// swift-tools-version: 6.1
import PackageDescription

// The pipeline, one target per stage, dependencies pointing one way:
// Geometry ← Scene ← Timeline ← Render → Raster ← Codecs ← Flipbook ← Batch ← CLI, and
// Render → Text (glyph outlines). Only FlipbookCodecs imports libpng, giflib, libjpeg-turbo and libwebp
// (CLibPNG, CGIFLib, CTurboJPEG, CWebP); only FlipbookText imports FreeType, HarfBuzz, fontconfig, FriBidi and ICU.
let package = Package(
    name: "Flipbook",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "flipbook", targets: ["FlipbookCLI"]),
        .library(name: "Flipbook", targets: ["Flipbook"]),
        .library(name: "FlipbookDiff", targets: ["FlipbookDiff"]),
        // Golden tests: FlipbookTesting for Swift Testing, FlipbookXCTest for XCTest (docs/testing.md).
        .library(name: "FlipbookTesting", targets: ["FlipbookTesting"]),
        .library(name: "FlipbookXCTest", targets: ["FlipbookXCTest"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.19"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
    ],
    targets: [
        .target(name: "FlipbookGeometry"),
        .target(
            name: "FlipbookScene",
            dependencies: ["FlipbookGeometry", .product(name: "Yams", package: "Yams")]),
        .target(name: "FlipbookTimeline", dependencies: ["FlipbookScene"]),
        // Lottie (Bodymovin JSON, dotLottie, .tgs) → the same Scene model the YAML reader builds.
        .systemLibrary(
            name: "CFlipbookZlib", path: "Sources/CFlipbookZlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(
            name: "FlipbookLottie",
            dependencies: [
                "FlipbookScene", "CFlipbookZlib",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]),
        .target(name: "FlipbookRaster", dependencies: ["FlipbookGeometry"]),
        .systemLibrary(
            name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]),
        .systemLibrary(
            name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"]), .brew(["harfbuzz"])]),
        .systemLibrary(
            name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev"]), .brew(["fontconfig"])]),
        .systemLibrary(
            name: "CFriBidi", path: "Sources/CFriBidi", pkgConfig: "fribidi",
            providers: [.apt(["libfribidi-dev"]), .brew(["fribidi"])]),
        .systemLibrary(
            name: "CICU", path: "Sources/CICU", pkgConfig: "icu-uc",
            providers: [.apt(["libicu-dev"]), .brew(["icu4c"])]),
        .target(
            name: "FlipbookText",
            dependencies: [
                "FlipbookGeometry", "CFreeType", "CHarfBuzz", "CFontconfig",
                "CFriBidi", "CICU",
            ]),
        .target(
            name: "FlipbookRender",
            dependencies: ["FlipbookTimeline", "FlipbookRaster", "FlipbookText"]),
        .systemLibrary(
            name: "CLibPNG", path: "Sources/CLibPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(
            name: "CGIFLib", path: "Sources/CGIFLib",
            providers: [.apt(["libgif-dev"]), .brew(["giflib"])]),
        // libjpeg-turbo's TurboJPEG API (errors come back as return codes, no longjmp).
        .systemLibrary(
            name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]),
        // libpng's full API behind a small C layer that turns its longjmp errors into results.
        .target(
            name: "CPNGShim", dependencies: ["CLibPNG"], linkerSettings: [.linkedLibrary("png16")]),
        // libwebp: its decoder for WebP images embedded in Lottie files (as lottie-ios decodes them), and
        // libwebpmux/libwebpdemux (same package, same headers) for animated WebP output and reading it back.
        .systemLibrary(
            name: "CWebP", path: "Sources/CWebP", pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
        // libdeflate: the APNG writer's deflate (smaller streams than zlib's level 9 at its
        // highest levels, and a fast level for ranking a frame's candidate encodings).
        .systemLibrary(
            name: "CFlipbookDeflate", path: "Sources/CFlipbookDeflate",
            providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]),
        .target(
            name: "FlipbookCodecs",
            dependencies: [
                "FlipbookRaster", "CLibPNG", "CPNGShim", "CGIFLib", "CTurboJPEG",
                "CWebP", "CFlipbookZlib", "CFlipbookDeflate",
            ]),
        .target(
            name: "Flipbook",
            dependencies: [
                "FlipbookScene", "FlipbookLottie", "FlipbookTimeline", "FlipbookRender",
                "FlipbookRaster", "FlipbookText", "FlipbookCodecs",
            ]),
        // Batch and CI orchestration on top of the rendering library: scheduling, content hashes,
        // shards and their assembly, contact sheets, reports (`flipbook render` of many scenes).
        .target(
            name: "FlipbookBatch",
            dependencies: [
                "Flipbook", "FlipbookScene", "FlipbookCodecs", "FlipbookRaster",
                "FlipbookGeometry", "FlipbookText",
            ]),
        .target(name: "FlipbookDiff", dependencies: ["FlipbookRaster", "FlipbookCodecs"]),
        // Golden checks without a test framework (`flipbook check` uses them), and the one-line
        // calls on top: FlipbookTesting imports Testing, FlipbookXCTest imports XCTest.
        .target(
            name: "FlipbookGoldens",
            dependencies: ["Flipbook", "FlipbookDiff", "FlipbookScene", "FlipbookCodecs"]),
        .target(name: "FlipbookTesting", dependencies: ["FlipbookGoldens", "FlipbookRaster"]),
        .target(name: "FlipbookXCTest", dependencies: ["FlipbookGoldens", "FlipbookRaster"]),
        // `flipbook preview`'s HTTP server: the only target that imports Hummingbird (and so
        // SwiftNIO); the pipeline targets stay free of them.
        .target(
            name: "FlipbookPreview",
            dependencies: [
                "Flipbook", "FlipbookScene", "FlipbookCodecs",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(
                    name: "ServiceLifecycle",
                    package: "swift-service-lifecycle"),
            ]),
        .executableTarget(
            name: "FlipbookCLI",
            dependencies: [
                "Flipbook", "FlipbookBatch", "FlipbookDiff", "FlipbookGoldens", "FlipbookCodecs",
                "FlipbookGeometry", "FlipbookRaster", "FlipbookRender",
                "FlipbookPreview",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // libFuzzer target for the scene loader, the Lottie reader and the PNG and GIF readers (scripts/fuzz);
        // built plainly it replays inputs given as files.
        .executableTarget(
            name: "FlipbookFuzz",
            dependencies: [
                "Flipbook", "FlipbookScene", "FlipbookLottie", "FlipbookTimeline",
                "FlipbookCodecs", "FlipbookRender",
            ]),
        .testTarget(name: "FlipbookSceneTests", dependencies: ["FlipbookScene"]),
        .testTarget(name: "FlipbookTimelineTests", dependencies: ["FlipbookTimeline"]),
        .testTarget(
            name: "FlipbookRasterTests",
            dependencies: ["FlipbookRaster", "FlipbookCodecs", "FlipbookTesting"],
            resources: [.copy("Goldens")]),
        .testTarget(name: "FlipbookRenderTests", dependencies: ["Flipbook", "FlipbookBatch"]),
        .testTarget(
            name: "FlipbookCodecsTests",
            dependencies: ["FlipbookCodecs", "CGIFLib", "CFlipbookZlib"]),
        .testTarget(
            name: "FlipbookTextTests",
            dependencies: ["FlipbookText", "FlipbookRaster", "FlipbookCodecs"]),
        .testTarget(
            name: "SeedSceneTests",
            dependencies: ["Flipbook", "FlipbookCodecs", "FlipbookTesting"],
            exclude: ["Goldens"]),
        .testTarget(
            name: "FlipbookCLITests",
            dependencies: [
                "FlipbookCLI", "FlipbookCodecs", "CFlipbookZlib",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]),
        .testTarget(
            name: "FlipbookDiffTests",
            dependencies: ["FlipbookDiff", "FlipbookRaster", "FlipbookCodecs"],
            exclude: ["Pixelmatch"]),
        .testTarget(
            name: "FlipbookTestingTests",
            dependencies: ["FlipbookTesting", "FlipbookDiff", "FlipbookCodecs"]),
        .testTarget(name: "FlipbookBatchTests", dependencies: ["Flipbook", "FlipbookBatch"]),
        .testTarget(
            name: "FlipbookLottieTests",
            dependencies: [
                "Flipbook", "FlipbookLottie", "FlipbookTimeline",
                "FlipbookTesting", "FlipbookDiff", "FlipbookCodecs",
            ],
            exclude: ["Fixtures", "Malformed", "Playable", "Corpus"]),
        .testTarget(
            name: "FlipbookPreviewTests",
            dependencies: [
                "FlipbookPreview", "Flipbook", "FlipbookScene",
                "FlipbookCodecs", "FlipbookRaster",
            ]),
    ]
)
