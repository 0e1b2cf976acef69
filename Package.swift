// swift-tools-version:6.0
import PackageDescription

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
        .target(name: "CompassCore", dependencies: ["CompassMachine"]),
        // What the machine does for the core, in C: SHA-NI rounds, SSE2 scans, prefetches and memory
        // hints (each x86 path has a portable twin; -DCOMPASS_PORTABLE compiles them out).
        .target(name: "CompassMachine"),
        // Everything on disk: the log's reader and writer, the lock, fsync, the rollback journal,
        // torn tails, snapshots, attachments, tailing. Every file operation goes through one seam.
        .target(name: "CompassStore", dependencies: ["CompassCore", "CLibPQ"]),
        // libpq, PostgreSQL's own C client, loaded at run time (dlopen): nothing of it is needed
        // to build or test; only a store on a postgresql:// address needs libpq.so.5.
        .target(name: "CLibPQ", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // The command-line layer: words in, store and core calls, text out. No file-system calls.
        .target(name: "CompassCLI", dependencies: ["CompassCore", "CompassStore"]),
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
