// swift-tools-version: 6.2
// An app's package that adds Statecharts with the one line the README shows. Scripts/client-pins.sh
// resolves and builds it with that URL pointing at a copy of this repository, once for each library
// product, and counts the packages it pins and the modules it compiles.
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    dependencies: [
        .package(url: "https://github.com/…/Statecharts", from: "0.2.0")
    ],
    targets: [
        .target(name: "App", dependencies: [.product(name: "Statecharts", package: "Statecharts")])
    ]
)
