import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting
import Testing

/// `swiftc` on PATH and the folder of the built Statecharts module, when both are there.
let implementationCompiler: (swiftc: URL, modules: URL)? = {
    let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/swiftc" }
    guard let swiftc = path.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
    let modules = BuiltProducts.binPaths.map { $0.appendingPathComponent("Modules") }.first {
        FileManager.default.fileExists(atPath: $0.appendingPathComponent("Statecharts.swiftmodule").path)
    }
    return modules.map { (URL(fileURLWithPath: swiftc), $0) }
}()

/// A design's named actions, guards and delays, generated as a Swift protocol the app conforms
/// to: compiled by `swiftc` against the built Statecharts module, once as the design is and once
/// with an action renamed in the design.
@Suite(.enabled(if: implementationCompiler != nil, "swiftc or the built Statecharts module is missing"))
struct ImplementationProtocolTests {
    /// The app's side: a type that implements what the checkout design names.
    static let app = """
        import Statecharts

        struct Cart: Sendable {
            var items = 0
            var notes: [String] = []
        }

        struct Shop: Checkout.Implementation {
            typealias Context = Cart
            var paymentTimeout: Duration { .seconds(30) }
            func hasItems(_ event: Checkout.Event?, _ context: Cart) -> Bool { context.items > 0 }
            func amountAtMost(_ event: Checkout.Event?, _ context: Cart, parameters: String) -> Bool { true }
            func autoApprove(_ event: Checkout.Event?, _ context: Cart) -> Bool { false }
            func notify(_ event: Checkout.Event?, _ context: inout Cart, parameters: String) throws {
                context.notes.append(parameters)
            }
        }

        func run() throws {
            var machine = try Checkout.chart(implementation: Shop()).makeMachine(context: Cart())
            try machine.start()
            try machine.send(.checkout)
        }
        """

    /// The generated Swift of the checkout design, with `change` applied to its JSON first.
    static func generated(_ change: (String) -> String = { $0 }) throws -> GeneratedSwift {
        let json = try String(
            contentsOf: SharedMaterial.packageRoot.appendingPathComponent("Examples/XState/checkout.json"),
            encoding: .utf8)
        let document = try XStateImporter.document(
            fromJSON: change(json), file: "checkout.json", options: .init(delays: ["paymentTimeout": .seconds(30)]))
        return try SwiftGenerator().generate(SCXMLWriter.write(document), file: "checkout.scxml")
    }

    /// `swiftc -typecheck` of the generated file and the app's.
    static func typecheck(_ generated: String) async throws -> ChildProcess.Result {
        let compiler = try #require(implementationCompiler)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "implementation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let generatedFile = folder.appendingPathComponent("Checkout.swift")
        let appFile = folder.appendingPathComponent("App.swift")
        try generated.write(to: generatedFile, atomically: true, encoding: .utf8)
        try app.write(to: appFile, atomically: true, encoding: .utf8)
        return try await ChildProcess(
            executable: compiler.swiftc,
            arguments: ["-typecheck", "-I", compiler.modules.path, generatedFile.path, appFile.path]
        ).run(timeout: .seconds(120))
    }

    @Test("the app's type conforms to the protocol generated from the design, and the chart compiles with it")
    func conforms() async throws {
        let generated = try Self.generated()
        #expect(generated.source.contains("protocol Implementation: Sendable"))
        let result = try await Self.typecheck(generated.source)
        #expect(result.status == 0, "\(result.errorText)")
    }

    @Test("an action the design renames breaks the build, naming the design's file and line")
    func renamedActionBreaksTheBuild() async throws {
        let generated = try Self.generated {
            $0.replacingOccurrences(of: #""type": "notify""#, with: #""type": "alert""#)
        }
        let line = try #require(
            generated.source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
                $0.contains("func alert(")
            })
        let lines = generated.source.split(separator: "\n", omittingEmptySubsequences: false)
        // `#sourceLocation(file:"checkout.scxml",line:9)` on the line before.
        let location = try #require(lines[line - 1].split(separator: "line:").last?.dropLast())
        let result = try await Self.typecheck(generated.source)
        #expect(result.status != 0)
        #expect(result.errorText.contains("error: type 'Shop' does not conform to protocol 'Checkout.Implementation'"))
        #expect(
            result.errorText.contains("checkout.scxml:\(location):"),
            "the compiler should name the design's place: \(result.errorText)")
        #expect(result.errorText.contains("protocol requires function 'alert("))
    }
}
