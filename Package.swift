// swift-tools-version: 6.1
import PackageDescription

// The pipeline, one target per stage, dependencies pointing one way:
// Geometry ← Scene ← Timeline ← Render → Raster ← Codecs ← Flipbook ← CLI, and
// Render → Text (glyph outlines). Only FlipbookCodecs imports libpng and giflib
// (CLibPNG, CGIFLib); only FlipbookText imports FreeType, HarfBuzz and fontconfig.
let package = Package(
    name: "Flipbook",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "flipbook", targets: ["FlipbookCLI"]),
        .library(name: "Flipbook", targets: ["Flipbook"]),
        .library(name: "FlipbookDiff", targets: ["FlipbookDiff"]),
        .library(name: "FlipbookTesting", targets: ["FlipbookTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
    ],
    targets: [
        .target(name: "FlipbookGeometry"),
        .target(name: "FlipbookScene", dependencies: ["FlipbookGeometry", .product(name: "Yams", package: "Yams")]),
        .target(name: "FlipbookTimeline", dependencies: ["FlipbookScene"]),
        .target(name: "FlipbookRaster", dependencies: ["FlipbookGeometry"]),
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]),
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz",
                       providers: [.apt(["libharfbuzz-dev"]), .brew(["harfbuzz"])]),
        .systemLibrary(name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: "fontconfig",
                       providers: [.apt(["libfontconfig-dev"]), .brew(["fontconfig"])]),
        .target(name: "FlipbookText", dependencies: ["FlipbookGeometry", "CFreeType", "CHarfBuzz", "CFontconfig"]),
        .target(name: "FlipbookRender", dependencies: ["FlipbookTimeline", "FlipbookRaster", "FlipbookText"]),
        .systemLibrary(name: "CLibPNG", path: "Sources/CLibPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(name: "CGIFLib", path: "Sources/CGIFLib",
                       providers: [.apt(["libgif-dev"]), .brew(["giflib"])]),
        // libpng's full API behind a small C layer that turns its longjmp errors into results.
        .target(name: "CPNGShim", dependencies: ["CLibPNG"], linkerSettings: [.linkedLibrary("png16")]),
        .target(name: "FlipbookCodecs", dependencies: ["FlipbookRaster", "CLibPNG", "CPNGShim", "CGIFLib"]),
        .target(name: "Flipbook", dependencies: ["FlipbookScene", "FlipbookTimeline", "FlipbookRender", "FlipbookRaster",
                                                 "FlipbookText", "FlipbookCodecs"]),
        .target(name: "FlipbookDiff", dependencies: ["FlipbookRaster", "FlipbookCodecs"]),
        .target(name: "FlipbookTesting", dependencies: ["Flipbook", "FlipbookDiff", "FlipbookScene", "FlipbookCodecs"]),
        .executableTarget(name: "FlipbookCLI", dependencies: [
            "Flipbook", "FlipbookDiff", "FlipbookTesting", "FlipbookCodecs", "FlipbookGeometry",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // libFuzzer target for the scene loader and the PNG and GIF readers (scripts/fuzz);
        // built plainly it replays inputs given as files.
        .executableTarget(name: "FlipbookFuzz", dependencies: ["Flipbook", "FlipbookScene", "FlipbookTimeline",
                                                               "FlipbookCodecs"]),
        .testTarget(name: "FlipbookSceneTests", dependencies: ["FlipbookScene"]),
        .testTarget(name: "FlipbookTimelineTests", dependencies: ["FlipbookTimeline"]),
        .testTarget(name: "FlipbookRasterTests", dependencies: ["FlipbookRaster", "FlipbookCodecs"],
                    resources: [.copy("Goldens")]),
        .testTarget(name: "FlipbookRenderTests", dependencies: ["Flipbook"]),
        .testTarget(name: "FlipbookCodecsTests", dependencies: ["FlipbookCodecs", "CGIFLib"]),
        .testTarget(name: "FlipbookTextTests", dependencies: ["FlipbookText", "FlipbookRaster", "FlipbookCodecs"]),
        .testTarget(name: "SeedSceneTests", dependencies: ["Flipbook", "FlipbookCodecs"],
                    exclude: ["Goldens"]),
        .testTarget(name: "FlipbookCLITests", dependencies: ["FlipbookCLI", "FlipbookCodecs"]),
        .testTarget(name: "FlipbookDiffTests", dependencies: ["FlipbookDiff", "FlipbookRaster", "FlipbookCodecs"]),
        .testTarget(name: "FlipbookTestingTests", dependencies: ["FlipbookTesting", "FlipbookDiff", "FlipbookCodecs"]),
        .testTarget(name: "FlipbookBatchTests", dependencies: ["Flipbook"]),
    ]
)
