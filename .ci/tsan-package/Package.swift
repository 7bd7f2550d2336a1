// swift-tools-version: 6.0
import PackageDescription

// The ThreadSanitizer build (.ci/tsan): the root package's own sources and tests, through the
// symlinks `Sources` and `Tests`, but only the targets the real-thread tests need. Building the
// whole package with `--sanitize=thread` took about 150 s of CI's 15 minutes; the simulator,
// the commands and their tests have no real-thread tests, so they are left out here.
// Keep these declarations in step with the root Package.swift (same names, settings, dependencies).
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "BackgroundTaskKitTSan",
    platforms: [.macOS(.v15), .iOS(.v18)],
    targets: [
        .target(name: "ThreadSanitizerSupport", swiftSettings: strict),
        .target(name: "BackgroundTaskKit", dependencies: ["ThreadSanitizerSupport"], swiftSettings: strict),
        .target(name: "BackgroundTaskNetwork", dependencies: ["BackgroundTaskKit"], swiftSettings: strict),
        .target(name: "SimulationFormats", swiftSettings: strict),
        .target(name: "SimulationFibers"),
        .target(name: "SimulationRuntimeShims"),
        .target(name: "SimulationRuntime", dependencies: ["SimulationFibers", "SimulationRuntimeShims"], swiftSettings: strict),
        .target(
            name: "DeterministicSimulation",
            dependencies: ["SimulationFormats", "SimulationRuntime", "SimulationRuntimeShims", "ThreadSanitizerSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "BackgroundTaskKitTests", dependencies: ["BackgroundTaskKit", "BackgroundTaskNetwork"],
            swiftSettings: strict),
        .testTarget(
            name: "DeterministicSimulationTests", dependencies: ["DeterministicSimulation", "SimulationFormats", "ThreadSanitizerSupport"],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
