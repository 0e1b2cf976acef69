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
        .target(name: "CompassCore"),
        // The command-line layer: argument parsing, log files, rendering. Testable in-process.
        .target(name: "CompassCLI", dependencies: ["CompassCore"]),
        // The thin executable: hands the process to CompassCLI.
        .executableTarget(name: "compass", dependencies: ["CompassCLI"]),
        .testTarget(name: "CompassCoreTests", dependencies: ["CompassCore"]),
        .testTarget(name: "CompassCLITests", dependencies: ["CompassCLI", "CompassCore"]),
    ],
    swiftLanguageModes: [.v6]
)
