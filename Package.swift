// swift-tools-version:5.9
// maskd: an as-you-type field formatter served over LSP-framed JSON-RPC.
// Layers (arrows are the only allowed imports):
//   maskd -> MaskServer -> JSONRPC -> JSON -> CJansson,  MaskServer -> MaskCatalog -> MaskEngine.
import PackageDescription

let package = Package(
    name: "maskd",
    products: [
        .executable(name: "maskd", targets: ["maskd"]),
        .library(name: "MaskEngine", targets: ["MaskEngine"]),
        .library(name: "MaskCatalog", targets: ["MaskCatalog"]),
    ],
    targets: [
        // The pure formatting engine: no I/O, no JSON, no Foundation.
        .target(name: "MaskEngine"),
        // The named formats: presets, phone numbers, postal codes, identifiers; built on the engine alone.
        .target(
            name: "MaskCatalog", dependencies: ["MaskEngine"],
            exclude: [
                "Phone/LICENSE-libphonenumber", "Postal/LICENSE-address-data", "Identifiers/LICENSE-stdnum",
            ]),
        // Debian's libjansson-dev, seen through pkg-config; only `JSON` imports it.
        .systemLibrary(
            name: "CJansson",
            pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"])]
        ),
        .target(name: "JSON", dependencies: ["CJansson"]),
        .target(name: "JSONRPC", dependencies: ["JSON"]),
        .target(name: "MaskServer", dependencies: ["MaskCatalog", "MaskEngine", "JSONRPC", "JSON"]),
        // Release builds of the daemon are one static executable (Swift runtime, jansson and the C library linked
        // in, with lld, which has no warnings about the C library's dlopen): editors spawn it often, and without
        // the dynamic loader and libstdc++'s start-up it answers `initialize` sooner (BENCHMARKS.md, row 4).
        .executableTarget(
            name: "maskd", dependencies: ["MaskServer", "MaskCatalog", "MaskEngine", "JSONRPC", "JSON"],
            linkerSettings: [
                .unsafeFlags(
                    ["-static-executable", "-use-ld=lld"],
                    .when(configuration: .release))
            ]),
        // Benchmarks: `swift run -c release maskd-bench` (see BENCHMARKS.md); not part of the daemon.
        .executableTarget(
            name: "maskd-bench", dependencies: ["MaskCatalog", "MaskEngine", "JSON", "MaskdClient"],
            path: "bench/Sources/maskd-bench"),

        // What the tests share (the seeded generator; reliability/soak compiles the same file).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // The client of a daemon on pipes that the tests, the bench and the soak share.
        .target(name: "MaskdClient", dependencies: ["JSON"], path: "Tests/MaskdClient"),
        // Typing into a field as a text field does, for the engine and catalogue tests.
        .target(name: "FieldTyping", dependencies: ["MaskEngine", "MaskCatalog"], path: "Tests/FieldTyping"),
        .testTarget(
            name: "MaskEngineTests", dependencies: ["MaskEngine", "MaskCatalog", "FieldTyping", "TestSupport"]),
        .testTarget(
            name: "MaskCatalogTests", dependencies: ["MaskCatalog", "MaskEngine", "FieldTyping", "TestSupport"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "TestSupport"]),
        .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC", "JSON"]),
        .testTarget(name: "MaskdClientTests", dependencies: ["MaskdClient", "JSON"]),
        .testTarget(
            name: "MaskServerTests",
            dependencies: ["MaskServer", "MaskCatalog", "MaskEngine", "JSONRPC", "JSON", "TestSupport", "MaskdClient"]),
    ]
)
