// swift-tools-version: 6.0
// An app team's package, as it would test its background code with BackgroundTaskKit's harness:
// the app's module (UploadKit), its workloads for the simulator (UploadKitWorkloads), its own
// bgsim (upload-bgsim, three lines) and a Swift Testing test that runs a campaign.
import Foundation
import PackageDescription

// In your app the dependency is remote:
//     .package(url: "https://github.com/<you>/BackgroundTaskKit.git", from: "0.1.0")
// and products name it `package: "BackgroundTaskKit"`. This example lives inside the
// BackgroundTaskKit repository and depends on it by path; SwiftPM names a path dependency after
// its directory, which is whatever the clone is called, so the name is read from the path.
let kitPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../..").standardizedFileURL
let kit = kitPath.lastPathComponent

let package = Package(
    name: "UploadKit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(path: kitPath.path)
    ],
    targets: [
        // The app's code: knows BackgroundTaskKit's host and network protocols, nothing of the simulator.
        .target(
            name: "UploadKit",
            dependencies: [
                .product(name: "BackgroundTaskKit", package: kit),
                .product(name: "BackgroundTaskNetwork", package: kit),  // URLSession, as a protocol
            ]),
        // The harness's view of it: workloads that drive UploadKit on the simulated iOS.
        .target(
            name: "UploadKitWorkloads",
            dependencies: [
                "UploadKit",
                .product(name: "BackgroundTaskKit", package: kit),
                .product(name: "BackgroundTaskSimulator", package: kit),
            ]),
        // The team's own bgsim: every command over the team's scenario files.
        .executableTarget(
            name: "upload-bgsim",
            dependencies: ["UploadKitWorkloads", .product(name: "BGSimCommands", package: kit)]),
        .testTarget(
            name: "UploadKitTests",
            dependencies: [
                "UploadKitWorkloads",
                .product(name: "BackgroundTaskSimulator", package: kit),
                .product(name: "BackgroundTaskSimulatorTesting", package: kit),  // expectNoViolations()
            ]),
    ],
    swiftLanguageModes: [.v6]
)
