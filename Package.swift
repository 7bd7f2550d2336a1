// swift-tools-version: 6.0
import PackageDescription

// Three libraries and one executable, no package dependencies (README.md describes each):
// - BackgroundTaskKit: the token/expiry core an app links. Knows nothing of the simulator.
// - BackgroundTaskNetwork: a URLSession-shaped network seam and reachability monitor, with their
//   production forms (URLSession, NWPathMonitor). Apart from the core because URLSession is in
//   FoundationNetworking on Linux (libcurl), which the core does not link; the simulator does,
//   through it.
// - DeterministicSimulation: the domain-free engine (PRNG, choices, clock, scheduler, traces,
//   campaigns, shrinking, reports).
// - BackgroundTaskSimulator: the simulated iOS, invariants, workloads and scenarios.
// - BackgroundTaskSimulatorTesting: the test front door (`await campaign.expectNoViolations()`,
//   `XCTAssertNoViolations`), apart so that bgsim and apps never link Testing or XCTest.
// - bgsim: a thin command-line front end over the libraries.
// - SimulationFibers (internal, C): the stack switch behind simulated threads' fibers.
// - SimulationRuntime (internal): the engine's systems room, OS mechanisms that name no engine
//   type (fibers, CPU placement, the runtime's hook variables, fatal signals, child processes).
// - SimulationRuntimeShims (internal, C): run marks, virtual clocks, executor installation.
// - ThreadSanitizerSupport (internal): `Mutex.withAnnotatedLock`, so ThreadSanitizer sees the
//   hand-overs of a contended `Mutex` on Linux; used by the core and the engine.
// - SimulationFormats (internal, not a product): the file formats the others read and write
//   (deterministic JSON, scenario reading with field paths, JUnit XML, atomic output files).
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// Test targets compile without optimization in every configuration. In a release build the
// libraries they test are optimized as an app's would be; the tests' own code (assertions,
// fixtures, workloads written for a test) is not, which takes the fresh-clone build of
// `swift test -c release` from about 290 s to about 195 s on 2 cores (the optimizer spent about
// 130 s of CPU on test code). Test targets are in no product, so a package that depends on this
// one by version never builds them and never sees the flag.
let testSettings: [SwiftSetting] = strict + [.unsafeFlags(["-Onone"], .when(configuration: .release))]

let package = Package(
    name: "BackgroundTaskKit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "BackgroundTaskKit", targets: ["BackgroundTaskKit"]),
        .library(name: "BackgroundTaskNetwork", targets: ["BackgroundTaskNetwork"]),
        .library(name: "DeterministicSimulation", targets: ["DeterministicSimulation"]),
        .library(name: "BackgroundTaskSimulator", targets: ["BackgroundTaskSimulator"]),
        .library(name: "BackgroundTaskSimulatorTesting", targets: ["BackgroundTaskSimulatorTesting"]),
        // A user's own bgsim: `BGSim.main(workloads:)` in one main.swift (README, "Your own
        // workloads on the command line").
        .library(name: "BGSimCommands", targets: ["BGSimCommands"]),
        .executable(name: "bgsim", targets: ["bgsim"]),
    ],
    targets: [
        .target(name: "ThreadSanitizerSupport", swiftSettings: strict),
        .target(name: "BackgroundTaskKit", dependencies: ["ThreadSanitizerSupport"], swiftSettings: strict),
        .target(name: "BackgroundTaskNetwork", dependencies: ["BackgroundTaskKit"], swiftSettings: strict),
        .target(name: "SimulationFormats", swiftSettings: strict),
        // The engine's one piece of assembly: the user-space stack switch that carries simulated
        // threads as fibers (x86-64 Linux, arm64 Linux and Darwin; elsewhere it reports itself unsupported).
        .target(name: "SimulationFibers"),
        // The engine's C shims: the per-thread run mark, the process's clocks on a run's virtual
        // time (Linux), and the load-time install of the engine's main and default executors.
        .target(name: "SimulationRuntimeShims"),
        // The engine's systems room (package-only, in no product): fibers, CPU placement, the
        // runtime's hook variables, fatal signals and their alternate stacks, child processes
        // (the spawn thread, the pipes, the lifeline that ends a child with its parent) and the
        // real clock.
        // The Architecture article lists what lives here and what is still in the engine.
        .target(name: "SimulationRuntime", dependencies: ["SimulationFibers", "SimulationRuntimeShims"], swiftSettings: strict),
        .target(
            name: "DeterministicSimulation",
            dependencies: ["SimulationFormats", "SimulationRuntime", "SimulationRuntimeShims", "ThreadSanitizerSupport"],
            swiftSettings: strict),
        .target(
            name: "BackgroundTaskSimulator",
            dependencies: ["BackgroundTaskKit", "BackgroundTaskNetwork", "DeterministicSimulation", "SimulationFormats",
                           "SimulationRuntime"],
            swiftSettings: strict),
        .target(
            name: "BackgroundTaskSimulatorTesting", dependencies: ["BackgroundTaskSimulator", "DeterministicSimulation"],
            swiftSettings: strict),
        // The commands live in a library target so tests call them with an argument array;
        // the executable is only `main.swift`.
        .target(
            name: "BGSimCommands",
            dependencies: ["BackgroundTaskSimulator", "DeterministicSimulation", "SimulationFormats", "BackgroundTaskKit"],
            swiftSettings: strict),
        .executableTarget(name: "bgsim", dependencies: ["BGSimCommands"], swiftSettings: strict),
        .testTarget(
            name: "BackgroundTaskKitTests", dependencies: ["BackgroundTaskKit", "BackgroundTaskNetwork"], swiftSettings: testSettings),
        // Declares its own `BackgroundTask`, as SwiftUI does, and uses the token unqualified.
        .testTarget(name: "NameClashTests", dependencies: ["BackgroundTaskKit"], swiftSettings: testSettings),
        .testTarget(
            name: "DeterministicSimulationTests",
            dependencies: ["DeterministicSimulation", "SimulationFormats", "SimulationRuntime", "ThreadSanitizerSupport"],
            swiftSettings: testSettings),
        .testTarget(name: "SimulationFormatsTests", dependencies: ["SimulationFormats"], swiftSettings: testSettings),
        .testTarget(
            name: "BackgroundTaskSimulatorTests",
            dependencies: [
                "BackgroundTaskSimulator", "BackgroundTaskKit", "BackgroundTaskNetwork", "DeterministicSimulation",
                "SimulationFormats", "BackgroundTaskSimulatorTesting",
            ],
            swiftSettings: testSettings),
        .testTarget(
            name: "BackgroundTaskSimulatorTestingTests",
            dependencies: ["BackgroundTaskSimulatorTesting", "BackgroundTaskSimulator", "DeterministicSimulation"],
            swiftSettings: testSettings),
        .testTarget(
            name: "bgsimTests",
            dependencies: ["BGSimCommands", "BackgroundTaskSimulator", "DeterministicSimulation", "SimulationFormats"],
            exclude: ["Golden"],
            swiftSettings: testSettings),
    ],
    swiftLanguageModes: [.v6]
)
