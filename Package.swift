// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Statecharts",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Statecharts", targets: ["Statecharts"])
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0")
    ],
    targets: [
        .target(name: "Statecharts"),
        .testTarget(name: "StatechartsTests", dependencies: ["Statecharts"]),
    ]
)
