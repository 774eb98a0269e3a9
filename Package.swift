// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "haul",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "haul", targets: ["haul"]),
        .library(name: "HaulNet", targets: ["HaulNet"]),
        .library(name: "HaulCore", targets: ["HaulCore"]),
        // The BitTorrent engine, which haul loads the first time a torrent is asked for (CTorrent.h).
        .library(name: "HaulTorrentEngine", type: .dynamic, targets: ["HaulTorrentEngine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        // MARK: - C shims
        // libcurl is loaded as haul starts, not linked (see CCurl.h); its OpenSSL (libcrypto) is
        // set up beside the load.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("crypto")]),
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),
        .target(name: "CFiles"),
        .target(name: "CMalloc"),
        .target(name: "CXML"),
        // The torrent engine's C interface and its loader.
        .target(name: "CTorrent"),
        // libtorrent-rasterbar behind that interface (C++), built as its own shared library. The
        // defines are those `pkg-config --cflags libtorrent-rasterbar` gives: they change the
        // library's types, so they must be the library's own (EngineBuildFlagsTests checks them).
        .target(
            name: "HaulTorrentEngine",
            cxxSettings: [
                .headerSearchPath("../CTorrent/include"), .define("TORRENT_LINKING_SHARED"),
                .define("BOOST_ASIO_ENABLE_CANCELIO"), .define("BOOST_ASIO_NO_DEPRECATED"),
                .define("TORRENT_USE_OPENSSL"), .define("TORRENT_USE_LIBCRYPTO"), .define("TORRENT_SSL_PEERS"),
                .define("OPENSSL_NO_SSL2"), .define("BOOST_ALL_NO_LIB"), .unsafeFlags(["-fexceptions"]),
            ],
            // A release's engine is built by the Makefile with the C++ compiler (see there).
            linkerSettings: [.linkedLibrary("torrent-rasterbar")]
        ),
        .systemLibrary(name: "COpenSSL"),
        .target(
            name: "CNcurses",
            cSettings: [.define("_XOPEN_SOURCE_EXTENDED"), .define("NCURSES_WIDECHAR", to: "1")],
            linkerSettings: [.linkedLibrary("ncursesw")]
        ),

        // MARK: - Modules
        .target(name: "HaulText"),
        .target(name: "HaulNet", dependencies: ["HaulText", "CCurl", "CFiles"]),
        .target(name: "HaulTorrent", dependencies: ["CTorrent"]),
        .target(
            name: "HaulCore",
            dependencies: [
                "HaulText", "HaulNet", "HaulTorrent", "CZlib", "CFiles", "COpenSSL", "CXML",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .target(
            name: "HaulRPC",
            dependencies: [
                "HaulText", "HaulNet", "HaulTorrent", "HaulCore", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .target(
            name: "HaulTUI",
            dependencies: ["HaulText", "HaulTorrent", "HaulCore", .product(name: "TOMLKit", package: "TOMLKit")]),
        .target(name: "HaulCurses", dependencies: ["HaulTUI", "CNcurses"]),
        .executableTarget(
            name: "haul",
            dependencies: [
                "HaulText", "HaulNet", "HaulCore", "HaulRPC", "HaulTUI", "HaulCurses", "CMalloc",
            ]
        ),

        // MARK: - Tests
        .target(
            name: "HaulTestSupport",
            dependencies: [
                "HaulNet",
                "COpenSSL",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/HaulTestSupport"
        ),
        // libFuzzer targets for the parsers of outside input (see the Makefile's fuzz target);
        // built plainly, it replays a corpus.
        .executableTarget(
            name: "HaulFuzz", dependencies: ["HaulText", "HaulCore", "HaulNet", "HaulRPC", "HaulTUI"],
            path: "Tests/HaulFuzz",
            exclude: ["Corpus", "fuzz.sh"]
        ),
        // The link emulator as a program, for bench/run.sh.
        .executableTarget(name: "LinkEmulatorTool", dependencies: ["HaulTestSupport"], path: "Tests/LinkEmulatorTool"),
        .testTarget(name: "HaulNetTests", dependencies: ["HaulText", "HaulNet", "HaulTestSupport", "CCurl", "CFiles"]),
        .testTarget(
            name: "HaulCoreTests",
            dependencies: [
                "HaulText", "HaulNet", "HaulCore", "HaulTestSupport", "CFiles",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(name: "HaulTorrentTests", dependencies: ["HaulTorrent", "HaulTestSupport"]),
        .testTarget(name: "HaulRPCTests", dependencies: ["HaulRPC", "HaulCore", "HaulTorrent", "HaulTestSupport"]),
        .testTarget(
            name: "HaulTUITests", dependencies: ["HaulTUI", "HaulCore", "HaulNet", "HaulTorrent"],
            exclude: ["Snapshots"]),
        .testTarget(name: "haulTests", dependencies: ["haul", "HaulCore", "HaulTUI", "HaulTestSupport"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
