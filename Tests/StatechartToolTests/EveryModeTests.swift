#if Tools
import Foundation
import Statecharts
import StatechartsSCXML
import Testing

/// One invoking document, run by the library and by each command of the tool: its invoked child
/// sends `hello` to `#_parent` a second after it starts, and every mode goes from `[waiting]`, with
/// the child running, to `[pass]` when that second has passed. None drops what the others do.
@Suite(.enabled(if: CommandLine.binary != nil, CommandLine.missing))
struct EveryModeTests {
    static let document = "Examples/greeting/greeting.scxml"

    /// The trace every mode must give: the active states after the start and after one second,
    /// and how many invoked sessions were running then.
    static let expected = [Step(active: ["waiting"], children: 1), Step(active: ["pass"], children: 0)]

    struct Step: Equatable, CustomStringConvertible {
        var active: [String]
        var children: Int
        var description: String { "\(active) children \(children)" }
    }

    @Test("the library's SCXMLSession")
    func library() throws {
        let chart = try SCXMLChart.load(contentsOf: CommandLine.packageRoot.appendingPathComponent(Self.document))
        var session = SCXMLSession(chart: chart)
        var trace: [Step] = []
        try session.start()
        trace.append(Step(active: session.activeStates, children: session.childSessionIDs.count))
        try session.advance(by: .seconds(1))
        trace.append(Step(active: session.activeStates, children: session.childSessionIDs.count))
        #expect(trace == Self.expected)
        #expect(session.status == .finished)
    }

    @Test("statechart run")
    func run() async throws {
        let output = try await CommandLine.run(["run", Self.document, "--events", "wait 1s", "--json"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardError.isEmpty)
        // JSON Lines; the steps, without the instants inside the wait.
        let steps = try output.standardOutput.split(separator: "\n").compactMap { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }.filter { ($0["step"] as? String)?.contains("(at ") == false }
        let trace = steps.map { step in
            Step(
                active: step["active"] as? [String] ?? [],
                children: (step["invoked"] as? [String: Any])?.count ?? -1)
        }
        #expect(trace == Self.expected)
        #expect(steps.last?["status"] as? String == "finished")
    }

    @Test("statechart repl")
    func repl() async throws {
        let output = try await CommandLine.run(["repl", Self.document], input: "wait 1s\n")
        #expect(output.status == 0, "\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        let start = try #require(lines.first { $0.hasPrefix("start → ") })
        let waited = try #require(lines.first { $0.hasPrefix("> wait 1s → ") })
        let trace = [
            Step(active: Self.states(in: start), children: start.components(separatedBy: "invoked: ").count - 1),
            Step(active: Self.states(in: waited), children: waited.components(separatedBy: "invoked: ").count - 1),
        ]
        #expect(trace == Self.expected, "\(output.standardOutput)")
        #expect(lines.contains("finished"))
    }

    @Test("statechart test")
    func test() async throws {
        let output = try await CommandLine.run(["test", "--json", Self.document])
        #expect(output.status == 0, "\(output.standardOutput)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let result = try #require((report["results"] as? [[String: Any]])?.first)
        #expect(result["outcome"] as? String == "passed")
        let lines = try #require(result["trace"] as? [String])
        // "0.0 seconds running [waiting] children w3c.1[greeting]", "1.0 seconds finished [pass]"
        let trace = lines.map { line in
            Step(active: Self.states(in: line), children: line.contains(" children ") ? 1 : 0)
        }
        #expect(trace == Self.expected, "\(lines)")
    }

    /// The first bracketed list of states in a line: `[waiting]` gives `["waiting"]`.
    static func states(in line: String) -> [String] {
        guard let open = line.firstIndex(of: "["), let close = line[open...].firstIndex(of: "]") else { return [] }
        return line[line.index(after: open)..<close].split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
    }
}
#endif
