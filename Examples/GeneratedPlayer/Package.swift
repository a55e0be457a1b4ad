// swift-tools-version: 6.2
// A package that uses the build plugin StatechartsGenerator: the media player's document
// (Sources/GeneratedPlayer/media-player.scxml) becomes the Swift types MediaPlayer.State,
// MediaPlayer.Event and MediaPlayer.chart() at build time. `swift run` in this folder.
import PackageDescription

let package = Package(
    name: "GeneratedPlayer",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        // In an app: .package(url: "https://github.com/…/Statecharts", from: "…")
        .package(name: "Statecharts", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "GeneratedPlayer",
            dependencies: [.product(name: "Statecharts", package: "Statecharts")],
            plugins: [.plugin(name: "StatechartsGenerator", package: "Statecharts")])
    ]
)
