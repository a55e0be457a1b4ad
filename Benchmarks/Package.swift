// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "StatechartsBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.29.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The machines measured, with their hand-written `switch` baselines.
        .target(name: "BenchmarkCharts", dependencies: [.product(name: "Statecharts", package: "main")]),
        // A plain loop over one case, for profilers (perf, valgrind --tool=callgrind).
        .executableTarget(
            name: "Profile", dependencies: ["BenchmarkCharts", .product(name: "Statecharts", package: "main")]),
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: [
                "BenchmarkCharts",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Statecharts", package: "main"),
            ],
            path: "Benchmarks/EngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "SCXMLBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Statecharts", package: "main"),
                .product(name: "StatechartsSCXML", package: "main"),
            ],
            path: "Benchmarks/SCXMLBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Reads the exported percentiles and prints the table of ratios.
        .executableTarget(name: "BenchmarkReport", path: "Sources/BenchmarkReport"),
    ]
)
