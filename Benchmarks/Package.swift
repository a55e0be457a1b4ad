// swift-tools-version: 6.1
import PackageDescription

// SwiftPM names a package given by path after its folder: the folder the project was cloned into.
let rootPackage = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "main").lowercased()

let package = Package(
    name: "StatechartsBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.29.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The machines measured, with their hand-written `switch` baselines; the media player's
        // Swift is generated from its document (media-player.scxml) by the package's plugin.
        .target(
            name: "BenchmarkCharts",
            dependencies: [
                .product(name: "Statecharts", package: rootPackage),
                .product(name: "StatechartsSCXML", package: rootPackage),
                .product(name: "StatechartsECMAScript", package: rootPackage),
            ],
            plugins: [.plugin(name: "StatechartsGenerator", package: rootPackage)]),
        // A plain loop over one case, for profilers (perf, valgrind --tool=callgrind).
        .executableTarget(
            name: "Profile",
            dependencies: [
                "BenchmarkCharts", .product(name: "Statecharts", package: rootPackage),
                .product(name: "StatechartsSCXML", package: rootPackage),
            ]),
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: [
                "BenchmarkCharts",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Statecharts", package: rootPackage),
            ],
            path: "Benchmarks/EngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The checklist's timed ratios: each case and its baseline interleaved, many times; and
        // uSCXML's charts, entries per second on many placements.
        .executableTarget(
            name: "Ratios",
            dependencies: [
                "BenchmarkCharts", .product(name: "Statecharts", package: rootPackage),
                .product(name: "StatechartsSCXML", package: rootPackage),
            ]),
        // Reads the exported percentiles and prints the table of ratios.
        .executableTarget(name: "BenchmarkReport", path: "Sources/BenchmarkReport"),
    ]
)
