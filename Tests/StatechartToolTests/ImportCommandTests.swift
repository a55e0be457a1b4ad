#if Tools
import Foundation
import Testing

/// `statechart import`: XState machine configurations, run with `statechart run` and written back
/// with `graph --format xstate`.
@Suite(.enabled(if: CommandLine.binary != nil, CommandLine.missing))
struct ImportCommandTests {
    static let corpus = CommandLine.packageRoot.appendingPathComponent("Examples/XState")

    /// The corpus's machines, each with its `--delay` and `--guard` arguments and its paths
    /// (`steps => configuration`), read from the `.paths` file beside it.
    static func machines() throws -> [(name: String, delays: [String], guards: [String], paths: [String])] {
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".paths") }
        return try files.sorted().map { file in
            let lines = try String(contentsOf: corpus.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            return (
                String(file.dropLast(6)),
                lines.filter { $0.hasPrefix("delay: ") }.flatMap { ["--delay", String($0.dropFirst(7))] },
                lines.filter { $0.hasPrefix("guard: ") }.flatMap { ["--guard", String($0.dropFirst(7))] },
                lines.filter { $0.hasPrefix("path") }
            )
        }
    }

    @Test("every machine of the corpus imports, and each of its paths runs with statechart run to its configuration")
    func corpusRuns() async throws {
        let directory = try CommandLine.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var runs = 0
        for machine in try Self.machines() {
            let document = directory.appendingPathComponent("\(machine.name).scxml")
            let imported = try await CommandLine.run(
                ["import", "Examples/XState/\(machine.name).json", "-o", document.path] + machine.delays)
            #expect(imported.status == 0, "\(machine.name): \(imported.standardError)")
            for path in machine.paths {
                // `path [guard=value,...]: steps => configuration`
                var guards = machine.guards
                if let open = path.firstIndex(of: "["), let close = path.firstIndex(of: "]") {
                    guards += path[path.index(after: open)..<close].split(separator: ",").flatMap {
                        ["--guard", $0.trimmingCharacters(in: .whitespaces)]
                    }
                }
                let body = path[path.index(after: path.firstIndex(of: ":") ?? path.startIndex)...]
                let halves = body.components(separatedBy: "=>").map { $0.trimmingCharacters(in: .whitespaces) }
                let steps = halves[0].replacingOccurrences(of: ", ", with: ",")
                let run = try await CommandLine.run(["run", document.path, "--events", steps] + guards)
                #expect(run.status == 0, "\(machine.name): \(run.standardError)")
                let last = run.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
                let expected =
                    halves[1] == "finished"
                    ? "finished" : "[" + halves[1].split(separator: " ").joined(separator: ", ") + "]"
                #expect(last == expected || last.hasSuffix("→ \(expected)"), "\(machine.name): \(path) gave \(last)")
                runs += 1
            }
        }
        #expect(runs >= 20)
    }

    @Test("import, graph --format xstate and import again give the same SCXML")
    func roundTrip() async throws {
        let directory = try CommandLine.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for machine in try Self.machines() {
            let first = try await CommandLine.run(["import", "Examples/XState/\(machine.name).json"] + machine.delays)
            let document = directory.appendingPathComponent("\(machine.name).scxml")
            try first.standardOutput.write(to: document, atomically: true, encoding: .utf8)
            let json = directory.appendingPathComponent("\(machine.name).json")
            let written = try await CommandLine.run(["graph", document.path, "--format", "xstate", "-o", json.path])
            #expect(written.status == 0, "\(machine.name): \(written.standardError)")
            let second = try await CommandLine.run(["import", json.path] + machine.delays)
            #expect(second.standardOutput == first.standardOutput, "\(machine.name)")
        }
    }

    @Test("problems are written at their JSON path and position with status 1; usage errors have status 64")
    func errors() async throws {
        let file = try CommandLine.document(
            #"{"id": "m", "initial": "a", "states": {"a": {"on": {"GO": "nowhere"}, "entry": [null]}}}"#,
            named: "broken.json")
        let broken = try await CommandLine.run(["import", file.path])
        #expect(broken.status == 1)
        let lines = broken.standardError.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(broken.standardError)")
        #expect(lines.contains("\(file.path):1:59: error: $.states.a.on.GO: the target \"nowhere\" names no state"))
        #expect(lines.contains { $0.hasPrefix("\(file.path):1:81: error: $.states.a.entry[0]: an action is null") })
        let delay = try await CommandLine.run(["import", file.path, "--delay", "slow"])
        #expect(delay.status == 64)
        let guardValue = try await CommandLine.run(["run", "Examples/lamp.scxml", "--guard", "ready=maybe"])
        #expect(guardValue.status == 64)
        #expect(guardValue.standardError.contains("--guard takes NAME=true or NAME=false"))
        let notXState = try await CommandLine.run(["graph", "Examples/lamp.scxml", "--format", "xstate"])
        #expect(notXState.status == 1)
        #expect(
            notXState.standardError.contains(
                "Examples/lamp.scxml:9:7: error: <send> cannot be written as an XState configuration"))
    }

    @Test(
        "a named guard without --guard is an error of the run, written on standard error; the transition is not taken")
    func guardWithoutAnswer() async throws {
        let directory = try CommandLine.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = directory.appendingPathComponent("checkout.scxml")
        _ = try await CommandLine.run([
            "import", "Examples/XState/checkout.json", "--delay", "paymentTimeout=30s", "-o", document.path,
        ])
        let run = try await CommandLine.run(["run", document.path, "--events", "CHECKOUT"])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("CHECKOUT → [checkout.cart]"))
        #expect(run.standardError.contains("the guard 'hasItems' has no code in this session"))
    }
}
#endif
