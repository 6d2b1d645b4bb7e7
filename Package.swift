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
        .library(name: "Accounts", targets: ["Accounts"]),
        .library(name: "DeviceLink", targets: ["DeviceLink"]),
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
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.36.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
    ],
    targets: [
        // Playlists: model, parser, writer, inspection, variant selection. Pure Swift, no I/O.
        // One JSON value type (ordered objects that compare regardless of order, exact integers),
        // shared by inspection reports, CLI events, bundles and Live Activities. No dependencies.
        .target(name: "JSONDocument"),
        .target(name: "HLS", dependencies: ["JSONDocument"]),
        // Log lines with timestamps, as text or JSON, written off the caller's thread (swift-log handler).
        .target(name: "ServerLogging", dependencies: ["JSONDocument", .product(name: "Logging", package: "swift-log")]),
        // The one way to run blocking calls that are not media work (a thread pool of its own).
        .target(name: "BlockingWork", dependencies: [.product(name: "NIOPosix", package: "swift-nio")]),
        // Fans events out to subscribers' async streams, dropping the oldest for a slow one.
        .target(name: "EventFeed"),
        // Offline downloads: plans from variant choices, concurrent fetching with retries,
        // a resume journal, AES-128 decryption, offline bundles.
        .target(
            name: "Downloads",
            dependencies: [
                "HLS", "JSONDocument", "BlockingWork", "Clocks",
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
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev"]), .brew(["ffmpeg"])]
        ),
        // Assets, thumbnails, compositions, resource loaders and packaging on FFmpeg.
        .target(name: "MediaCore", dependencies: ["CFFmpeg", "HLS", .product(name: "NIOPosix", package: "swift-nio")]),
        // Tesseract 5's C API (Live Text).
        .systemLibrary(name: "CTesseract", pkgConfig: "tesseract", providers: [.apt(["libtesseract-dev"]), .brew(["tesseract"])]),
        // Text recognition on video frames (Live Text), its cache and the frame-text search index.
        .target(
            name: "VisualAnalysis",
            dependencies: [
                "CTesseract", "MediaCore", "SQLiteDatabase", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // How every SQLite store opens its file (folder, WAL pool, foreign keys, busy timeout).
        .target(name: "SQLiteDatabase", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
        // The time that grace periods, stale dates and backoff are measured on (a manual clock in tests).
        .target(name: "Clocks"),
        // The authoritative player state: sessions, speeds, interstitials. Pure logic.
        .target(name: "Playback"),
        // Accounts, sign-in sessions and API tokens: who may use a server, and as what role.
        .target(
            name: "Accounts",
            dependencies: [
                "SQLiteDatabase", "BlockingWork",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // The media library: SQLite store, ingest jobs, metadata overrides.
        .target(
            name: "Library",
            dependencies: [
                "HLS", "MediaCore", "BlockingWork", "EventFeed", "SQLiteDatabase",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // The stores that server nodes share on PostgreSQL (postgres-nio): the library (the same
        // `LibraryStore`, versioned migrations, the job queue with SKIP LOCKED leases, cross-node
        // change notices with LISTEN/NOTIFY), accounts, Live Activities, device pairings and the Live Text index.
        .target(
            name: "PostgreSQLStores",
            dependencies: [
                "Library", .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
                "Accounts", "LiveActivities", "DeviceLink", "VisualAnalysis", "JSONDocument",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // A small S3 client (SigV4, multipart uploads, ranges, retries) over AsyncHTTPClient.
        .target(
            name: "ObjectStorage",
            dependencies: [
                "BlockingWork",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "ObjectStorageTests", dependencies: ["ObjectStorage", "ServiceTesting", .product(name: "NIOCore", package: "swift-nio")]),
        // Packaged media in an S3-compatible bucket: the library's `MediaStore` on `ObjectStorage`.
        .target(
            name: "LibraryObjectStorage",
            dependencies: [
                "Library", "ObjectStorage", "BlockingWork", "HLS",
                // Streaming reads hand the HTTP client's body on without collecting it.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "MediaStoreTests",
            dependencies: [
                "Library", "LibraryObjectStorage", "LibraryTesting", "ObjectStorage", "ServiceTesting", "MarqueeServer", "HLS", "MediaTesting",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        // A media store that forwards to a real one, for tests that change one of its behaviours.
        .target(name: "LibraryTesting", dependencies: ["Library"], path: "Tests/LibraryTesting"),
        // Throwaway servers for tests: PostgreSQL (initdb in a temporary folder) and SeaweedFS, loopback only.
        .target(name: "ServiceTesting", path: "Tests/ServiceTesting"),
        // Test clips written with the ffmpeg command, one recipe for every test target.
        // Also the manual clock and the loopback HLS server that tests share.
        .target(
            name: "MediaTesting",
            dependencies: [
                "Clocks", .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ], path: "Tests/MediaTesting"),
        // Push provider for Live Activities: HTTP/2 to APNs, ES256 provider tokens, payloads, channels.
        .target(
            name: "APNs",
            dependencies: [
                "JSONDocument",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ]
        ),
        // Live Activities: model, lifecycle rules, SQLite store, fan-out to pages and to APNs.
        .target(
            name: "LiveActivities",
            dependencies: [
                "APNs", "JSONDocument", "EventFeed", "Clocks", "SQLiteDatabase", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // A local stand-in for APNs (HTTP/2 over TLS, JWT and payload checks) for tests and benchmarks.
        .target(
            name: "APNsTesting",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ]
        ),
        // DNS-SD's C API (Avahi's dns_sd compatibility library on Linux).
        .systemLibrary(
            name: "CDNSSD",
            pkgConfig: "avahi-compat-libdns_sd",
            providers: [.apt(["libavahi-compat-libdnssd-dev"])]
        ),
        // Nearby devices: framing, pairing, the encrypted channel, transports, discovery.
        .target(
            name: "DeviceLink",
            dependencies: [
                "CDNSSD", "Clocks",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            resources: [.copy("Services/application-services.json")]
        ),
        // The HTTP server: REST API, HLS routes, the web player, renderer WebSockets.
        .target(
            name: "MarqueeServer",
            dependencies: [
                "HLS", "Library", "Playback", "Downloads", "Accounts", "LiveActivities", "APNs", "DeviceLink", "EventFeed",
                "VisualAnalysis", "BlockingWork", "Clocks", "JSONDocument",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("Public")]
        ),
        .executableTarget(
            name: "marquee",
            dependencies: [
                "BlockingWork",
                "HLS", "Downloads", "MediaCore", "Library", "MarqueeServer", "Accounts", "APNs", "DeviceLink", "VisualAnalysis",
                "PostgreSQLStores", "JSONDocument",
                "LibraryObjectStorage", "ObjectStorage", "ServerLogging",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .executableTarget(
            name: "apns-bench", dependencies: ["APNs", "APNsTesting", .product(name: "Crypto", package: "swift-crypto")], path: "Benchmarks/apns-bench"),
        .executableTarget(
            name: "marquee-bench", dependencies: ["HLS", "MediaCore", "DeviceLink", "Playback", "MarqueeServer"], path: "Benchmarks/marquee-bench"),
        .testTarget(name: "HLSTests", dependencies: ["HLS", "JSONDocument", "MediaTesting"]),
        .testTarget(name: "JSONDocumentTests", dependencies: ["JSONDocument"]),
        .testTarget(name: "DownloadsTests", dependencies: ["Downloads", "HLS", "MediaTesting"]),
        .testTarget(name: "MediaCoreTests", dependencies: ["MediaCore", "MediaTesting"]),
        .testTarget(
            name: "PlaybackTests",
            dependencies: ["Playback", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "AccountsTests", dependencies: ["Accounts", "MediaTesting"]),
        .testTarget(
            name: "LiveActivitiesTests",
            dependencies: ["LiveActivities", "JSONDocument", "APNs", "APNsTesting", "MediaTesting", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "APNsTests", dependencies: ["APNs", "APNsTesting", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "DeviceLinkTests", dependencies: ["DeviceLink", "MediaTesting"], exclude: ["DeviceLinkSpecVectors.json"]),
        .testTarget(name: "VisualAnalysisTests", dependencies: ["VisualAnalysis", "MediaCore", "MediaTesting"]),
        .testTarget(
            name: "LibraryTests", dependencies: ["Library", "LibraryTesting", "MediaCore", "HLS", "PostgreSQLStores", "ServiceTesting", "MediaTesting"]),
        // One contract suite per node store (accounts, activities, pairings), run against both implementations.
        .testTarget(
            name: "NodeStoreTests",
            dependencies: [
                "Accounts", "LiveActivities", "JSONDocument", "DeviceLink", "VisualAnalysis", "PostgreSQLStores", "ServiceTesting", "MediaTesting",
            ]),
        .testTarget(
            name: "MarqueeServerTests",
            dependencies: [
                "MarqueeServer", "Library", "Playback", "Downloads", "HLS", "DeviceLink", "JSONDocument",
                "VisualAnalysis", "MediaTesting", "ServiceTesting", "PostgreSQLStores", "ServerLogging",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Upcoming language features, on every Swift target (as Hummingbird's package does): `any` on
// existential types, members visible only through the modules a file imports, and imports
// internal unless a file marks them `public import`.
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + upcomingFeatures
}
