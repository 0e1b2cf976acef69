// swift-tools-version:6.0
import PackageDescription

/// Debug builds of this repository compile the product's modules optimized (`-O`, with `assert`
/// kept): the test suite folds, hashes and replays thousands of logs, which take about four
/// times the CPU unoptimized, so `swift test` runs in half the time. Test targets stay
/// unoptimized. `COMPASS_ONONE=1` gives a plain debug build (to step through the core in a
/// debugger). Never set when this package is another's dependency (a checkout), where SwiftPM
/// refuses unsafe flags.
let optimizedDebug = !Context.packageDirectory.contains("/checkouts/") && Context.environment["COMPASS_ONONE"] != "1"
let swiftSettings: [SwiftSetting] = optimizedDebug ? [.unsafeFlags(["-O", "-assert-config", "Debug"], .when(configuration: .debug))] : []
let cSettings: [CSetting] = optimizedDebug ? [.unsafeFlags(["-O2"], .when(configuration: .debug))] : []

let package = Package(
    name: "RecruitingCompass",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "CompassCore", targets: ["CompassCore"]),
        .library(name: "CompassStore", targets: ["CompassStore"]),
        .executable(name: "compass", targets: ["compass"]),
    ],
    dependencies: [],
    targets: [
        // The pure domain core: events, codec, rules, replay, views. No files, no clock, no printing.
        .target(name: "CompassCore", dependencies: ["CompassMachine"], swiftSettings: swiftSettings),
        // What the machine does for the core, in C: SHA-NI rounds, SSE2 scans, prefetches and memory
        // hints (each x86 path has a portable twin; -DCOMPASS_PORTABLE compiles them out).
        .target(name: "CompassMachine", cSettings: cSettings),
        // Everything on disk: the log's reader and writer, the lock, fsync, the rollback journal,
        // torn tails, snapshots, attachments, tailing. Every file operation goes through one seam.
        .target(name: "CompassStore", dependencies: ["CompassCore", "CLibPQ"], swiftSettings: swiftSettings),
        // libpq, PostgreSQL's own C client, loaded at run time (dlopen): nothing of it is needed
        // to build or test; only a store on a postgresql:// address needs libpq.so.5.
        .target(name: "CLibPQ", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // The command-line layer: words in, store and core calls, text out. No file-system calls.
        .target(name: "CompassCLI", dependencies: ["CompassCore", "CompassStore"], swiftSettings: swiftSettings),
        // The thin executable: hands the process to CompassCLI.
        .executableTarget(name: "compass", dependencies: ["CompassCLI"]),
        // The in-house property-testing harness, log generators, the fault-injecting file systems
        // and the built binary's runner, shared by the test targets.
        .target(name: "CompassTestSupport", dependencies: ["CompassCore", "CompassStore"], path: "Tests/CompassTestSupport"),
        // Baselines for bench/run.sh (JSONDecoder, raw write+fsync). Not part of the product.
        .executableTarget(name: "compass-bench", dependencies: ["CompassCLI", "CompassCore", "CompassStore"]),
        .testTarget(name: "CompassCoreTests", dependencies: ["CompassCore", "CompassTestSupport"]),
        // The store's own suites: reads streamed from disk, the change feed.
        .testTarget(name: "CompassStoreTests", dependencies: ["CompassStore", "CompassCore", "CompassTestSupport"]),
        // A client of the public API only (no @testable), as an app embedding the store.
        // An app's view: without package access, only public API is visible to it (a
        // `package` declaration used here fails the build).
        .testTarget(name: "CompassClientTests", dependencies: ["CompassStore", "CompassCore"], packageAccess: false),
        .testTarget(name: "CompassCLITests", dependencies: ["CompassCLI", "CompassCore", "CompassStore", "CompassTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
