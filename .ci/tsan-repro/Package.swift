// swift-tools-version: 6.0
import PackageDescription
let package = Package(name: "repro", platforms: [.macOS(.v15)], targets: [.executableTarget(name: "repro")])
