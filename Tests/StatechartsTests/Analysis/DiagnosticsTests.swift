import Statecharts
import Testing

/// Each check on a chart that has exactly its defect, and charts without defects.
@Suite struct DiagnosticsTests {
    static let always: StatechartGuard<String, NamedEvent, Log> = { _ in true }

    func on(_ event: String, _ targets: [String] = [], guarded: Bool = false) -> TestElement {
        .transition(
            .events([.descriptor(EventDescriptor(event))]), targets: targets, guard: guarded ? Self.always : nil)
    }

    func codes(_ chart: TestChart) -> [ChartDiagnostic<String>.Code] { chart.diagnostics().map(\.code) }

    @Test("a state nothing leads to is unreachable, and only the outermost one is reported")
    func unreachable() throws {
        let chart = try TestChart(
            name: "unreachable",
            elements: [
                .state("a", elements: [on("go", ["b"])]),
                .state("b", elements: [on("back", ["a"])]),
                .state("island", elements: [.state("inner", elements: [on("go", ["a"])])]),
            ])
        let diagnostics = chart.diagnostics()
        #expect(diagnostics.map(\.code) == [.unreachableState])
        #expect(diagnostics.first?.state == "island")
        #expect(diagnostics.first?.severity == .warning)
        #expect(chart.reachableStates == ["a", "b"])
    }

    @Test("a final state nothing leads to is reported as such")
    func unreachableFinal() throws {
        let chart = try TestChart(
            name: "endless",
            elements: [
                .state("a", elements: [on("go", ["b"])]),
                .state("b", elements: [on("back", ["a"])]),
                .state("end", kind: .final),
            ])
        #expect(codes(chart) == [.unreachableFinalState])
        #expect(chart.diagnostics().first?.message.contains("'end'") == true)
    }

    @Test("an atomic state that nothing leaves, not final, is a trap; one a parallel region beside it leaves is not")
    func trap() throws {
        let chart = try TestChart(
            name: "trap",
            elements: [
                .state("a", elements: [on("go", ["stuck"]), on("split", ["p"])]),
                .state("stuck", elements: [on("poke")]),
                .state(
                    "p", kind: .parallel,
                    elements: [
                        .state("left", elements: [.state("l")]),
                        .state("right", elements: [.state("r", elements: [on("out", ["a"])])]),
                    ]),
            ])
        let diagnostics = chart.diagnostics()
        #expect(diagnostics.map(\.code) == [.trap])
        #expect(diagnostics.first?.state == "stuck")
    }

    @Test("a transition an earlier unguarded one always beats is shadowed")
    func shadowed() throws {
        let chart = try TestChart(
            name: "shadowed",
            elements: [
                .state("a", elements: [on("*", ["b"]), on("go", ["c"], guarded: true)]),
                .state("b", elements: [on("back", ["a"])]),
                .state("c", elements: [on("back", ["a"])]),
            ])
        let diagnostics = chart.diagnostics()
        #expect(diagnostics.map(\.code) == [.shadowedTransition])
        #expect(diagnostics.first?.state == "a")
        #expect(diagnostics.first?.message.contains("on 'go'") == true)
    }

    @Test("descriptors, eventless transitions and shorter timeouts shadow too; a guarded earlier one does not")
    func shadowingForms() throws {
        let chart = try TestChart(
            name: "forms",
            elements: [
                .state(
                    "a",
                    elements: [
                        on("error", ["b"]), on("error.network", ["b"], guarded: true),
                        on("retry", ["b"], guarded: true), on("retry", ["b"], guarded: true),
                        .transition(.after(.seconds(1)), targets: ["b"]),
                        .transition(.after(.seconds(2)), targets: ["b"]),
                    ]),
                .state(
                    "b",
                    elements: [
                        .transition(.eventless, targets: ["a"], guard: Self.always),
                        .transition(.eventless, targets: ["a"]),
                        .transition(.eventless, targets: ["a"]),
                    ]),
            ])
        let shadowed = chart.diagnostics().filter { $0.code == .shadowedTransition }
        #expect(shadowed.map(\.state) == ["a", "a", "b"], "error.network, the 2 s timeout, the last eventless")
        #expect(chart.diagnostics().count == 3)
    }

    @Test("two unguarded transitions of one state on the same event conflict")
    func conflicting() throws {
        let chart = try TestChart(
            name: "conflicting",
            elements: [
                .state("a", elements: [on("go", ["b"]), on("go", ["c"])]),
                .state("b", elements: [on("back", ["a"])]),
                .state("c", elements: [on("back", ["a"])]),
            ])
        let diagnostics = chart.diagnostics()
        #expect(diagnostics.map(\.code) == [.conflictingTransitions])
        #expect(diagnostics.first?.message.contains("'go'") == true)
    }

    @Test("unguarded transitions in two regions on one event that both leave the parallel state conflict")
    func conflictingRegions() throws {
        let chart = try TestChart(
            name: "regions",
            elements: [
                .state(
                    "p", kind: .parallel,
                    elements: [
                        .state("left", elements: [.state("l", elements: [on("stop", ["off"]), on("tick")])]),
                        .state("right", elements: [.state("r", elements: [on("stop", ["off"]), on("tick")])]),
                    ]),
                .state("off", elements: [on("start", ["p"])]),
            ])
        let diagnostics = chart.diagnostics()
        #expect(diagnostics.map(\.code) == [.conflictingRegions], "tick stays inside each region: no conflict")
        #expect(diagnostics.first?.state == "r")
    }

    @Test("a state with a done transition that can never complete is reported")
    func neverCompletes() throws {
        let chart = try TestChart(
            name: "incomplete",
            elements: [
                .state(
                    "p", kind: .parallel,
                    elements: [
                        .state(
                            "left",
                            elements: [.state("l", elements: [on("finish", ["lf"])]), .state("lf", kind: .final)]),
                        .state(
                            "right",
                            elements: [
                                .state("r1", elements: [on("flip", ["r2"])]),
                                .state("r2", elements: [on("flip", ["r1"])]),
                            ]),
                        .transition(.done, targets: ["out"]),
                    ]),
                .state("out", elements: [on("again", ["p"])]),
            ])
        let diagnostics = chart.diagnostics()
        #expect(diagnostics.map(\.code) == [.neverCompletes])
        #expect(diagnostics.first?.message.contains("not every region") == true)
    }

    @Test("diagnostics carry the position of the state or transition, most serious first")
    func locations() throws {
        let chart = try TestChart(
            name: "located",
            elements: [
                .state(
                    "a",
                    elements: [
                        .transition(
                            .events([.descriptor(EventDescriptor("go"))]), targets: ["a"],
                            location: SourcePosition(file: "chart.scxml", line: 3, column: 5)),
                        .transition(
                            .events([.descriptor(EventDescriptor("go"))]), targets: ["a"],
                            location: SourcePosition(file: "chart.scxml", line: 4, column: 5)),
                    ], location: SourcePosition(file: "chart.scxml", line: 2, column: 3)),
                .state("b", location: SourcePosition(file: "chart.scxml", line: 6, column: 3)),
            ])
        let described = chart.diagnostics().map(\.description)
        #expect(described.count == 2)
        #expect(
            described.contains {
                $0.hasPrefix("chart.scxml:4:5: warning: ") && $0.hasSuffix("[conflictingTransitions]")
            })
        #expect(described.contains { $0.hasPrefix("chart.scxml:6:3: warning: the state 'b' can never be entered") })
    }
}
