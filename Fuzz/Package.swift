// swift-tools-version: 6.1
import PackageDescription

// SwiftPM names a package given by path after its folder: the folder the project was cloned into.
let rootPackage = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "main").lowercased()

// Fuzz targets for libFuzzer. Build and run them with Scripts/fuzz.sh, which passes
// -sanitize=fuzzer,address: libFuzzer then supplies `main` and calls LLVMFuzzerTestOneInput.
let package = Package(
    name: "StatechartsFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: "..", traits: [.defaults, "Tools"])],
    targets: [
        // libFuzzer's entry, shared by the fuzz targets.
        .target(name: "FuzzDriver"),
        // SCXML documents: read, build, write back, run a few steps.
        .executableTarget(
            name: "SCXMLReaderFuzzer",
            dependencies: [
                .product(name: "Statecharts", package: rootPackage),
                .product(name: "StatechartsSCXML", package: rootPackage), "FuzzDriver",
            ]),
        // SCXML documents loaded with every data model and driven with events and time under limits.
        .executableTarget(
            name: "SessionFuzzer",
            dependencies: [
                .product(name: "Statecharts", package: rootPackage),
                .product(name: "StatechartsSCXML", package: rootPackage),
                .product(name: "StatechartsTesting", package: rootPackage), "FuzzDriver",
            ]),
        // Charts of the shared generator run through the quick step and the general path side by side.
        .executableTarget(
            name: "ChartFuzzer",
            dependencies: [
                .product(name: "Statecharts", package: rootPackage),
                .product(name: "StatechartsTesting", package: rootPackage), "FuzzDriver",
            ]),
        // Archives of machines and of sessions, hostile or hand-edited, restored and run.
        .executableTarget(
            name: "ArchiveFuzzer",
            dependencies: [
                .product(name: "Statecharts", package: rootPackage),
                .product(name: "StatechartsSCXML", package: rootPackage),
                .product(name: "StatechartsTesting", package: rootPackage), "FuzzDriver",
            ]),
        // The step scripts `statechart run --script` reads.
        .executableTarget(
            name: "ScriptFuzzer",
            dependencies: [.product(name: "StatechartTool", package: rootPackage), "FuzzDriver"]),
    ]
)
