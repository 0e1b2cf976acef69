// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "RecruitingCompass",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "CompassCore", targets: ["CompassCore"]),
        .executable(name: "compass", targets: ["compass"]),
    ],
    dependencies: [],
    targets: [
        // The pure domain core: events, codec, rules, replay, views. No files, no clock, no printing.
        .target(name: "CompassCore", dependencies: ["CompassSHA"]),
        // SHA-256 block compression with the x86 SHA extensions (a portable Swift fallback runs elsewhere).
        .target(name: "CompassSHA"),
        // The command-line layer: argument parsing, log files, rendering. Testable in-process.
        .target(name: "CompassCLI", dependencies: ["CompassCore"]),
        // The thin executable: hands the process to CompassCLI.
        .executableTarget(name: "compass", dependencies: ["CompassCLI"]),
        // The in-house property-testing harness and log generators, shared by the test targets.
        .target(name: "CompassTestSupport", dependencies: ["CompassCore"], path: "Tests/CompassTestSupport"),
        // Baselines for bench/run.sh (JSONDecoder, raw write+fsync). Not part of the product.
        .executableTarget(name: "compass-bench", dependencies: ["CompassCLI", "CompassCore"]),
        .testTarget(name: "CompassCoreTests", dependencies: ["CompassCore", "CompassTestSupport"]),
        .testTarget(name: "CompassCLITests", dependencies: ["CompassCLI", "CompassCore", "CompassTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
