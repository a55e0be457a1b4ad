import Statecharts
import Testing

// The example of the article "Checking and drawing a chart", as the article shows it.

enum Tape: Hashable, Sendable { case idle, playing, buffering }

enum TapeEvent: StatechartEvent, CaseIterable { case play, stop }

@Suite struct CheckingAndDrawingTests {
    @Test("diagnostics print with the position of the state, its severity, a sentence and the code")
    func printDiagnostics() throws {
        var output: [String] = []
        func print(_ items: Any...) { output.append(items.map { "\($0)" }.joined(separator: " ")) }
        let chart = try Statechart<Tape, TapeEvent, Void>(initial: .idle) {
            StateNode(.idle) { On(.play, to: .playing) }
            StateNode(.playing) { On(.stop, to: .idle) }
            StateNode(.buffering) { On(.play, to: .playing) }
        }

        for diagnostic in chart.diagnostics() {
            print(diagnostic)
        }
        // Player.swift:42:13: warning: the state 'buffering' can never be entered: no transition of a
        // reachable state leads to it [unreachableState]

        #expect(output.count == 1)
        let line = try #require(output.first)
        #expect(
            line.hasPrefix("DocumentationExamplesTests/CheckingAndDrawingTests.swift:")
                || line.hasPrefix("MainActorDefaultTests/CheckingAndDrawingTests.swift:"))
        #expect(
            line.hasSuffix(
                ": warning: the state 'buffering' can never be entered: no transition of a reachable state leads to it [unreachableState]"
            ))
    }
}
