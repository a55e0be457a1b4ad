// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Statecharts",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "Statecharts", targets: ["Statecharts"]),
        .library(name: "StatechartsSCXML", targets: ["StatechartsSCXML"]),
        // SCXML's ECMAScript data model on JavaScriptCore (with the trait ECMAScript, on by default).
        .library(name: "StatechartsECMAScript", targets: ["StatechartsECMAScript"]),
        // SCXML's Basic HTTP Event I/O Processor: a server on Hummingbird, a client on
        // async-http-client. Behind the trait HTTP: an app that leaves it off fetches neither.
        .library(name: "StatechartsHTTP", targets: ["StatechartsHTTP"]),
        // A page in the browser that shows a machine live and drives it: `statechart inspect`, or a
        // live machine of an app attached with one call. On Hummingbird, behind the trait Inspector.
        .library(name: "StatechartsInspector", targets: ["StatechartsInspector"]),
        // Testing charts: an exhaustive tester, paths that cover a chart, coverage; and what tests,
        // fuzzers and the tool share: the conformance runner, random charts, the data models.
        .library(name: "StatechartsTesting", targets: ["StatechartsTesting"]),
        // Machines that outlive the process: a journal and snapshots in SQLite (GRDB) or, for a
        // fleet of workers, PostgreSQL (postgres-nio, with the trait PostgreSQL). Behind the trait
        // Store: an app that leaves it off fetches neither.
        .library(name: "StatechartsStore", targets: ["StatechartsStore"]),
        // The crash tests and benchmark of the stores (trait Store): `Scripts/durability.sh` runs it.
        .executable(name: "statechart-durability", targets: ["statechart-durability"]),
        // The tool (trait Tools): `Scripts/statechart.sh`, or `Scripts/install.sh` to put it on PATH.
        .executable(name: "statechart", targets: ["statechart"]),
        // Swift for the .scxml files of a target, at build time: a build tool plugin, and the
        // generator it runs, which depends on the SCXML library only.
        .plugin(name: "StatechartsGenerator", targets: ["StatechartsGenerator"]),
        .executable(name: "statechart-generate", targets: ["statechart-generate"]),
        // The commands of the tool, for tests and the fuzz targets in Fuzz/ (trait Tools).
        .library(name: "StatechartTool", targets: ["StatechartTool"]),
        // What live machines do, written to a swift-log Logger (trait Logging).
        .library(name: "StatechartsLogging", targets: ["StatechartsLogging"]),
        // A Bluetooth LE connection with messaging, as a statechart: a simulated central, and an
        // adapter to CoreBluetooth on Apple platforms.
        .library(name: "StatechartsBluetooth", targets: ["StatechartsBluetooth"]),
        // A scripted session of the connection kit: `swift run --traits Tools bluetooth-demo`.
        .executable(name: "bluetooth-demo", targets: ["BluetoothDemo"]),
        // Messaging throughput on the simulated link, in simulated time (trait Tools).
        .executable(name: "bluetooth-throughput", targets: ["BluetoothThroughput"]),
    ],
    // Every package this one depends on sits behind a trait that an app leaves off, so that a client
    // of Statecharts or StatechartsSCXML resolves and fetches none (SwiftPM prunes a dependency used
    // only under disabled traits, or only by test targets: Evolution/0016). This repository's own
    // scripts build with every trait (`--enable-all-traits`).
    traits: [
        .trait(
            name: "ECMAScript",
            description: """
                SCXML's ECMAScript data model on JavaScriptCore: the system framework on Apple platforms, \
                the Debian package libjavascriptcoregtk-4.1-dev on Linux. Without it, the library and the \
                tool build with no JavaScriptCore and run documents of the null data model.
                """),
        .trait(
            name: "HTTP",
            description: """
                The product StatechartsHTTP, SCXML's Basic HTTP Event I/O Processor, on Hummingbird and \
                async-http-client; and in the `statechart` tool, `run --http`, `repl --http` and the optional \
                W3C tests of `test`. Without it the product is empty and nothing of SwiftNIO is fetched.
                """),
        .trait(
            name: "Inspector",
            description: """
                The product StatechartsInspector, the chart in the browser, live, on Hummingbird and its \
                WebSocket; and `statechart inspect`. Without it the product is empty.
                """),
        .trait(
            name: "JavaScriptCoreSPI",
            description: """
                On Apple platforms: stop scripts of the ECMAScript data model at the script time and heap \
                limits, and turn eval off, with JavaScriptCore functions Apple does not publish \
                (JSContextGroupSetExecutionTimeLimit, JSGetMemoryUsageStatistics, JSGlobalContextSetEvalEnabled). \
                App Store review rejects apps that call them, so it is off by default; without it, Apple \
                builds do not bound scripts. Linux builds always use these functions, which WebKitGTK exports.
                """),
        .trait(
            name: "LineEditing",
            description: """
                Line editing, history kept across runs and completion of event names in `statechart repl`, \
                on libedit: part of the system on macOS, the Debian package libedit-dev on Linux. Without \
                it, the repl reads plain lines.
                """),
        .trait(
            name: "Logging",
            description: """
                The product StatechartsLogging: what live machines do, written to a swift-log Logger. \
                Without it the product is empty.
                """),
        .trait(
            name: "Store",
            description: """
                The product StatechartsStore: durable machines in SQLite, on GRDB (the Debian package \
                libsqlite3-dev on Linux); and the crash tests' executable statechart-durability. Without it \
                the product is empty.
                """),
        .trait(
            name: "PostgreSQL",
            description: """
                `PostgresMachineStore` in the StatechartsStore product, on postgres-nio: durable machines \
                shared by workers in many processes. Turns on Store.
                """,
            enabledTraits: ["Store"]),
        .trait(
            name: "Tools",
            description: """
                This repository's executables: the `statechart` tool (on swift-argument-parser) and the \
                Bluetooth demos (on swift-clocks). `Scripts/statechart.sh` and `Scripts/install.sh` build \
                it with every trait; an app has no use for it.
                """),
        .default(enabledTraits: ["ECMAScript", "LineEditing"]),
    ],
    dependencies: [
        // The tool only (trait Tools).
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // StatechartsLogging, StatechartsHTTP, StatechartsInspector and StatechartsStore, each behind its trait.
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // StatechartsHTTP only: the Basic HTTP Event I/O Processor's server and client.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.20.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.25.0"),
        // StatechartsInspector only: the inspector page's live updates.
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
        // StatechartsStore only: SQLite (the Debian package libsqlite3-dev on Linux) and PostgreSQL.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.25.0"),
        // Tests, and the Bluetooth demos (trait Tools): a clock advanced by hand.
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.0"),
        // Tests only: property checks with shrinking.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // The engine: charts, machines and the W3C SCXML algorithm. No dependencies.
        .target(name: "Statecharts"),
        // SCXML documents: reading, writing, data models, executable content.
        .target(name: "StatechartsSCXML", dependencies: ["Statecharts", "CStatechartsThread"]),
        // The thread-local slot of the cascade a session call binds (C11 `_Thread_local`).
        .target(name: "CStatechartsThread"),
        // What the build plugin runs: `statechart generate` without the tool's other commands.
        .executableTarget(name: "statechart-generate", dependencies: ["StatechartsSCXML"]),
        .plugin(name: "StatechartsGenerator", capability: .buildTool(), dependencies: ["statechart-generate"]),
        // JavaScriptCore's C API, found with pkg-config on Linux.
        .systemLibrary(
            name: "CJavaScriptCore", pkgConfig: "javascriptcoregtk-4.1",
            providers: [.apt(["libjavascriptcoregtk-4.1-dev"])]),
        // The ECMAScript data model. Its sources compile only with the trait ECMAScript.
        .target(
            name: "StatechartsECMAScript",
            dependencies: [
                "Statecharts", "StatechartsSCXML",
                .target(name: "CJavaScriptCore", condition: .when(traits: ["ECMAScript"])),
            ],
            linkerSettings: [
                .linkedFramework(
                    "JavaScriptCore",
                    .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS], traits: ["ECMAScript"]))
            ]),
        // An inspection hook that writes what live machines do to a swift-log Logger.
        .target(
            name: "StatechartsLogging",
            dependencies: [
                "Statecharts", .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
            ]),
        // SCXML's Basic HTTP Event I/O Processor, on loopback by default.
        .target(
            name: "StatechartsHTTP",
            dependencies: [
                "Statecharts", "StatechartsSCXML",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["HTTP"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["HTTP"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["HTTP"])),
            ]),
        // The inspector: its page, HTTP API and WebSocket, and the attachment of live machines.
        .target(
            name: "StatechartsInspector",
            dependencies: [
                "Statecharts", "StatechartsSCXML",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Inspector"])),
                .product(
                    name: "HummingbirdWebSocket", package: "hummingbird-websocket",
                    condition: .when(traits: ["Inspector"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Inspector"])),
            ]),
        // The exhaustive tester, paths through a chart and coverage; the conformance runner, random
        // charts and the data models of this build, for the tests, the fuzz targets and the tool.
        .target(
            name: "StatechartsTesting",
            dependencies: [
                "Statecharts", "StatechartsSCXML",
                .target(name: "StatechartsECMAScript", condition: .when(traits: ["ECMAScript"])),
            ]),
        // Durable machines: the journal, snapshots and timers of a fleet, in SQLite or PostgreSQL.
        .target(
            name: "StatechartsStore",
            dependencies: [
                "Statecharts", .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["Store"])),
                // Durable documents (DurableMachines(document:…)); this package's own module.
                .target(name: "StatechartsSCXML", condition: .when(traits: ["Store"])),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Store"])),
            ]),
        .executableTarget(
            name: "statechart-durability",
            dependencies: [
                "StatechartsStore", "Statecharts", "StatechartsSCXML",
                .target(name: "StatechartsECMAScript", condition: .when(traits: ["ECMAScript"])),
                .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["Store"])),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Store"])),
            ]),
        // libedit's readline interface, found with pkg-config on Linux.
        .systemLibrary(
            name: "CEditLine", pkgConfig: "libedit", providers: [.apt(["libedit-dev"]), .brew(["libedit"])]),
        // The commands of the `statechart` tool, as a library the tests call.
        .target(
            name: "StatechartTool",
            dependencies: [
                "Statecharts", "StatechartsSCXML", "StatechartsTesting",
                .target(name: "StatechartsHTTP", condition: .when(traits: ["HTTP"])),
                .target(name: "StatechartsInspector", condition: .when(traits: ["Inspector"])),
                .target(name: "StatechartsStore", condition: .when(traits: ["Store"])),
                .target(name: "CEditLine", condition: .when(traits: ["LineEditing"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tools"])),
            ]
        ),
        .executableTarget(
            name: "statechart",
            dependencies: [
                "StatechartTool",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tools"])),
            ]),
        // The Bluetooth LE connection kit: the chart and messaging against a protocol that mirrors
        // CoreBluetooth, its simulator, and the CoreBluetooth adapter (compiled where CoreBluetooth is).
        .target(name: "StatechartsBluetooth", dependencies: ["Statecharts"]),
        // The seed machines as runnable examples, each with tests and an article.
        .target(name: "StatechartExamples", dependencies: ["Statecharts"], path: "Examples/Flows"),
        .executableTarget(
            name: "BluetoothDemo",
            dependencies: [
                "StatechartsBluetooth", "Statecharts",
                .product(name: "Clocks", package: "swift-clocks", condition: .when(traits: ["Tools"])),
            ],
            path: "Examples/BluetoothDemo"),
        .executableTarget(
            name: "BluetoothThroughput",
            dependencies: [
                "StatechartsBluetooth", "Statecharts",
                .product(name: "Clocks", package: "swift-clocks", condition: .when(traits: ["Tools"])),
            ],
            path: "Examples/BluetoothThroughput"),
        .testTarget(name: "StatechartsTests", dependencies: ["Statecharts", "StatechartsTesting"]),
        // The live runtime (actors, clocks, tasks) on a test clock.
        .testTarget(
            name: "StatechartsRuntimeTests",
            dependencies: ["Statecharts", .product(name: "Clocks", package: "swift-clocks")]),
        .testTarget(
            name: "StatechartsSCXMLTests",
            dependencies: [
                "Statecharts", "StatechartsSCXML", "StatechartsTesting",
                .target(name: "StatechartsHTTP", condition: .when(traits: ["HTTP"])),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Fixtures"]),
        // The ECMAScript data model, its sandbox, and <invoke> (with the trait ECMAScript).
        .testTarget(
            name: "StatechartsECMAScriptTests",
            dependencies: [
                "Statecharts", "StatechartsSCXML", "StatechartsTesting",
                .target(name: "StatechartsECMAScript", condition: .when(traits: ["ECMAScript"])),
            ],
            exclude: ["Fixtures"]),
        // The connection kit's scenarios, faults and messaging, on the simulated central.
        .testTarget(
            name: "StatechartsBluetoothTests",
            dependencies: [
                "StatechartsBluetooth", "Statecharts", "StatechartsTesting",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Fixtures"]),
        // A stand-in for the CoreBluetooth surface the adapter uses, with Apple's signatures: built
        // only for CoreBluetoothCentralTests, and empty where CoreBluetooth exists.
        .target(name: "CoreBluetoothStandIn", path: "Tests/CoreBluetoothStandIn"),
        // The CoreBluetooth adapter (its source file, linked in) compiled against the stand-in, as a
        // module of its own: what the documentation's app (the article "Building the app") makes its
        // central with on Linux. Empty on Apple platforms, where the library has the adapter.
        .target(
            name: "CoreBluetoothAdapterStandIn", dependencies: ["StatechartsBluetooth", "CoreBluetoothStandIn"],
            path: "Tests/CoreBluetoothAdapterStandIn", swiftSettings: [.define("COREBLUETOOTH_STAND_IN")]),
        // The CoreBluetooth adapter (its source file, linked in) on the stand-in: every delegate
        // path, and the connection chart end to end through it. Empty on Apple platforms, where
        // the library compiles the adapter against the real framework.
        .testTarget(
            name: "CoreBluetoothCentralTests",
            dependencies: [
                "StatechartsBluetooth", "CoreBluetoothStandIn", "Statecharts",
            ],
            swiftSettings: [.define("COREBLUETOOTH_STAND_IN")]),
        .testTarget(
            name: "StatechartExamplesTests",
            dependencies: [
                "StatechartExamples", "Statecharts", "StatechartsTesting",
                .product(name: "Clocks", package: "swift-clocks"),
            ]),
        // The logging inspector's records, checked with a log handler that keeps them.
        .testTarget(
            name: "StatechartsLoggingTests",
            dependencies: [
                "Statecharts", "StatechartsLogging",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
                .product(name: "Clocks", package: "swift-clocks"),
            ]),
        // The Swift that `statechart generate` writes for the bundled media player (a compiled chart)
        // and for a counter with ECMAScript variables (a document as Swift values), checked against
        // the generator's output and run beside the interpreter.
        .testTarget(
            name: "GeneratedChartTests",
            dependencies: ["Statecharts", "StatechartsSCXML", "StatechartsTesting"], exclude: ["Documents"]),
        // Every Swift example of the README and the documentation catalogs, run as written.
        .testTarget(
            name: "DocumentationExamplesTests",
            dependencies: documentationExampleDependencies, exclude: ["Fixtures"]),
        // The same examples (symbolic links to the files above and to Examples/Flows), compiled as
        // an app target of Xcode 26 compiles them: main-actor default isolation, approachable
        // concurrency. Plus a SwiftUI-shaped model driven through Observation.
        .testTarget(
            name: "MainActorDefaultTests",
            dependencies: documentationExampleDependencies, exclude: ["Fixtures"],
            swiftSettings: [
                .defaultIsolation(MainActor.self), .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
                .enableUpcomingFeature("InferIsolatedConformances"),
            ]),
        // The Basic HTTP Event I/O Processor, over loopback.
        .testTarget(
            name: "StatechartsHTTPTests",
            dependencies: [
                "StatechartsHTTP", "StatechartsSCXML",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["HTTP"])),
                .target(name: "StatechartsECMAScript", condition: .when(traits: ["ECMAScript"])),
            ]),
        // The inspector over loopback: its API and WebSocket, live machines attached, and
        // `statechart inspect`.
        .testTarget(
            name: "StatechartsInspectorTests",
            dependencies: [
                "StatechartsInspector", "Statecharts", "StatechartsSCXML", "StatechartsTesting",
                // `statechart inspect --store`: a stored machine of a document's fleet.
                .target(name: "StatechartsStore", condition: .when(traits: ["Store"])),
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Inspector"])),
                .product(
                    name: "HummingbirdWSClient", package: "hummingbird-websocket",
                    condition: .when(traits: ["Inspector"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Inspector"])),
            ]),
        // Durable machines on SQLite, and on PostgreSQL where a server is configured.
        .testTarget(
            name: "StatechartsStoreTests",
            dependencies: [
                "StatechartsStore", "Statecharts",
                "StatechartsSCXML", .target(name: "StatechartsECMAScript", condition: .when(traits: ["ECMAScript"])),
                .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["Store"])),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
            ]),
        // End-to-end tests of the `statechart` binary.
        .testTarget(
            name: "StatechartToolTests",
            dependencies: [
                "StatechartTool", "Statecharts", "StatechartsSCXML", "StatechartsTesting", "StatechartsStore",
            ],
            exclude: ["Fixtures"]),
    ]
)

/// What the documentation's examples use.
var documentationExampleDependencies: [Target.Dependency] {
    [
        "Statecharts", "StatechartsSCXML", "StatechartsLogging", "StatechartsHTTP", "StatechartsInspector",
        "StatechartsBluetooth", "StatechartsTesting", "StatechartsStore", "CoreBluetoothAdapterStandIn",
        .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
        .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["Store"])),
        .target(name: "StatechartsECMAScript", condition: .when(traits: ["ECMAScript"])),
        .product(name: "Clocks", package: "swift-clocks"),
    ]
}
