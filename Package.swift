// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Marquee",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "marquee", targets: ["marquee"]),
        .library(name: "HLS", targets: ["HLS"]),
        .library(name: "MediaCore", targets: ["MediaCore"]),
        .library(name: "Downloads", targets: ["Downloads"]),
        .library(name: "Playback", targets: ["Playback"]),
        .library(name: "Library", targets: ["Library"]),
        .library(name: "MarqueeServer", targets: ["MarqueeServer"]),
        .library(name: "VisualAnalysis", targets: ["VisualAnalysis"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // Playlists: model, parser, writer, inspection, variant selection. Pure Swift, no I/O.
        .target(name: "HLS"),
        // Offline downloads: plans from variant choices, concurrent fetching with retries,
        // a resume journal, AES-128 decryption, offline bundles.
        .target(
            name: "Downloads",
            dependencies: [
                "HLS",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // FFmpeg's libraries (libavformat, libavcodec, libavutil, libswscale, libswresample).
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libavutil libswscale libswresample",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev"])]
        ),
        // Assets, thumbnails, compositions, resource loaders and packaging on FFmpeg.
        .target(name: "MediaCore", dependencies: ["CFFmpeg", "HLS"]),
        // Tesseract 5's C API (Live Text).
        .systemLibrary(name: "CTesseract", pkgConfig: "tesseract", providers: [.apt(["libtesseract-dev"])]),
        // Text recognition on video frames (Live Text), its cache and the frame-text search index.
        .target(
            name: "VisualAnalysis",
            dependencies: ["CTesseract", "MediaCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The authoritative player state: sessions, speeds, interstitials. Pure logic.
        .target(name: "Playback"),
        // The media library: SQLite store, ingest jobs, metadata overrides.
        .target(
            name: "Library",
            dependencies: [
                "HLS", "MediaCore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The HTTP server: REST API, HLS routes, the web player, renderer WebSockets.
        .target(
            name: "MarqueeServer",
            dependencies: [
                "HLS", "Library", "Playback", "Downloads",
                "VisualAnalysis",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            resources: [.copy("Public")]
        ),
        .executableTarget(
            name: "marquee",
            dependencies: [
                "HLS", "Downloads", "MediaCore", "Library", "MarqueeServer", "VisualAnalysis",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .executableTarget(name: "marquee-bench", dependencies: ["HLS", "MediaCore"], path: "Benchmarks/marquee-bench"),
        .testTarget(name: "HLSTests", dependencies: ["HLS"]),
        .testTarget(name: "DownloadsTests", dependencies: ["Downloads", "HLS"]),
        .testTarget(name: "MediaCoreTests", dependencies: ["MediaCore"]),
        .testTarget(
            name: "PlaybackTests",
            dependencies: ["Playback", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "VisualAnalysisTests", dependencies: ["VisualAnalysis", "MediaCore"]),
        .testTarget(name: "LibraryTests", dependencies: ["Library", "MediaCore", "HLS"]),
        .testTarget(
            name: "MarqueeServerTests",
            dependencies: [
                "MarqueeServer", "Library", "Playback", "Downloads", "HLS",
                "VisualAnalysis",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
