// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so that the main build and CI do not build
// package-benchmark. Run them with scripts/benchmark (see its header).
let package = Package(
    name: "FlipbookBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Flipbook", path: ".."),
        .package(
            url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1",
            traits: ["MallocInterposer"]),
    ],
    targets: [
        // giflib reached directly, for its own LZW compressor as the reference.
        .systemLibrary(name: "CGIFReference", path: "Sources/CGIFReference"),
        .executableTarget(
            name: "FrameEncoding",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "Flipbook", package: "Flipbook"),
                "CGIFReference",
            ],
            path: "Benchmarks/FrameEncoding",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // The corpus path and the ten files the Lottie benchmarks share.
        .target(name: "LottieBenchFiles", path: "Benchmarks/LottieBenchFiles"),
        // issue 14: a Lottie frame against rlottie's time for the same file and size
        // (scripts/bench-lottie-peers measures rlottie and ThorVG).
        .executableTarget(
            name: "LottieFrames",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "Flipbook", package: "Flipbook"), "LottieBenchFiles",
            ],
            path: "Benchmarks/LottieFrames",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // issue 24: Flipbook and ThorVG in one process, pass by pass
        // (scripts/bench-lottie-interleaved; ThorVG loaded at run time from thorvg-python).
        .executableTarget(
            name: "LottieInterleaved",
            dependencies: [.product(name: "Flipbook", package: "Flipbook"), "LottieBenchFiles"],
            path: "Benchmarks/LottieInterleaved"
        ),
        // issue 12: render CPU per frame with and without reuse between frames.
        .executableTarget(
            name: "FrameReuse",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "Flipbook", package: "Flipbook"),
            ],
            path: "Benchmarks/FrameReuse",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "PNGCodec",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "Flipbook", package: "Flipbook"),
            ],
            path: "Benchmarks/PNGCodec",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ]
)
