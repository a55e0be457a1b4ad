import Foundation
import Statecharts
import StatechartsTesting
import Testing

/// Saving a machine and restoring it: the restored machine continues exactly as the original.
@Suite(.ownThread) struct ArchiveTests {
    typealias Archive = MachineArchive<String, NamedEvent, Log>

    /// The archive of `machine`, through JSON, restored into a machine of `chart`.
    func roundTrip(_ machine: TestMachine, _ chart: TestChart) throws -> TestMachine {
        let data = try JSONEncoder().encode(machine.archive())
        let archive = try JSONDecoder().decode(Archive.self, from: data)
        return try TestMachine(chart: chart, restoring: archive)
    }

    struct Attempt: Codable, Sendable, Equatable {
        var number: Int
    }

    /// A chart with everything an archive holds: nesting, a parallel state, deep history, state
    /// data, a timeout and delayed events.
    func richChart() throws -> TestChart {
        try TestChart(
            name: "rich",
            elements: [
                .state(
                    "work", kind: .parallel,
                    elements: [
                        .state(
                            "left", initial: ["l1"],
                            elements: [
                                .history("deep", type: .deep),
                                .state(
                                    "l1",
                                    elements: [
                                        .stateData(Attempt.self) { _ in Attempt(number: 1) },
                                        .transition(
                                            .events([.descriptor(EventDescriptor("retry"))]), targets: [],
                                            action: { scope in
                                                scope.updateData(of: "l1", as: Attempt.self) { $0.number += 1 }
                                                scope.context.counter =
                                                    scope.data(of: "l1", as: Attempt.self)?.number ?? -1
                                            }),
                                        .transition(.events([.descriptor(EventDescriptor("next"))]), targets: ["l2"]),
                                    ]),
                                .state(
                                    "l2",
                                    elements: [
                                        .state("l2a", elements: [.transition(.after(.seconds(5)), targets: ["l2b"])]),
                                        .state("l2b"),
                                    ]),
                            ]),
                        .state(
                            "right",
                            elements: [
                                .state(
                                    "r1",
                                    elements: [
                                        .onEntry { scope in scope.send("tick", after: .seconds(3), id: "tick") },
                                        .transition(.events([.descriptor(EventDescriptor("tick"))]), targets: ["r2"]),
                                    ]),
                                .state(
                                    "r2",
                                    elements: [
                                        .transition(.events([.descriptor(EventDescriptor("back"))]), targets: ["r1"])
                                    ]),
                            ]),
                        .transition(.events([.descriptor(EventDescriptor("pause"))]), targets: ["paused"]),
                    ]),
                .state(
                    "paused",
                    elements: [.transition(.events([.descriptor(EventDescriptor("resume"))]), targets: ["deep"])]),
            ])
    }

    @Test("a machine restored after every step gives the same trace as one never interrupted")
    func richChartResumes() throws {
        let chart = try richChart()
        var original = try started(chart)
        var interrupted = try roundTrip(original, chart)
        let steps: [(TestMachine) throws -> TestMachine] = [
            {
                var m = $0; try m.send("retry"); return m
            },
            {
                var m = $0; try m.send("retry"); return m
            },
            {
                var m = $0; try m.advance(by: .seconds(2)); return m
            },
            {
                var m = $0; try m.send("next"); return m
            },
            {
                var m = $0; try m.advance(by: .seconds(2)); return m
            },
            {
                var m = $0; try m.send("pause"); return m
            },
            {
                var m = $0; try m.send("resume"); return m
            },
            {
                var m = $0; try m.advance(by: .seconds(6)); return m
            },
            {
                var m = $0; try m.send("back"); return m
            },
            {
                var m = $0; _ = m.cancelDelayedEvents(id: "tick"); return m
            },
            {
                var m = $0; try m.advance(by: .seconds(10)); return m
            },
        ]
        var trace: [[String]] = []
        for (index, step) in steps.enumerated() {
            original = try step(original)
            interrupted = try roundTrip(step(interrupted), chart)
            #expect(interrupted.configuration == original.configuration, "step \(index)")
            #expect(interrupted.context == original.context, "step \(index)")
            #expect(interrupted.now == original.now, "step \(index)")
            #expect(interrupted.nextDeadline == original.nextDeadline, "step \(index)")
            #expect(interrupted.pendingTimerCount == original.pendingTimerCount, "step \(index)")
            #expect(interrupted.data(of: "l1", as: Attempt.self) == original.data(of: "l1", as: Attempt.self))
            trace.append(original.activeStates)
        }
        // The run exercised what it is meant to: data, history, the timeout and the delayed event.
        #expect(original.context.counter == 3)
        #expect(trace[6] == ["l2a", "r1"], "deep history restored l2a and r1")
        #expect(trace[7] == ["l2b", "r2"], "the timeout and the delayed event fired after a restore")
        #expect(trace[10] == ["l2b", "r1"], "the delayed event cancelled after a restore stays cancelled")
    }

    @Test("random charts: archiving and restoring after every step never changes the run", arguments: 0..<2)
    func randomChartsResume(batch: Int) throws {
        var compared = 0
        for seed in UInt64(batch * 500)..<UInt64(batch * 500 + 500) {
            var random = SplitMix64(seed: seed)
            guard let chart = try? RandomChartTests.chart(&random, seed: seed, faults: false) else { continue }
            var original = chart.makeMachine(context: Log())
            do { try original.start() } catch { continue }
            var interrupted = try roundTrip(original, chart)
            compared += 1
            for next in RandomChart.events(tape: random.tape(count: 12), count: 12)
            where original.status == MachineStatus.running {
                func step(_ machine: inout TestMachine) -> String? {
                    do {
                        if next.after > 0 { try machine.advance(by: .milliseconds(next.after)) }
                        if machine.status == .running { try machine.send(NamedEvent(next.name)) }
                        return nil
                    } catch {
                        return "\(error)"
                    }
                }
                let originalError = step(&original)
                let interruptedError = step(&interrupted)
                #expect(originalError == interruptedError, "seed \(seed)")
                if originalError != nil { break }
                interrupted = try roundTrip(interrupted, chart)
                #expect(interrupted.configuration == original.configuration, "seed \(seed)")
                #expect(interrupted.context == original.context, "seed \(seed)")
                #expect(interrupted.nextDeadline == original.nextDeadline, "seed \(seed)")
                #expect(interrupted.status == original.status, "seed \(seed)")
            }
        }
        #expect(compared > 60, "the generator should produce runnable charts (ran \(compared))")
    }

    // MARK: - Time while stored

    @Test("timers due while the machine was stored fire at their deadlines, or are dropped, as the caller says")
    func overdueTimers() throws {
        let chart = try richChart()
        let machine = try started(chart)
        let archive = try machine.archive()
        #expect(archive.timers.count == 1)

        var fired = try TestMachine(chart: chart, restoring: archive)
        try fired.resume(after: .seconds(4), overdueTimers: .fire)
        #expect(fired.isActive("r2"))
        #expect(fired.now == .seconds(4))

        var dropped = try TestMachine(chart: chart, restoring: archive)
        try dropped.resume(after: .seconds(4), overdueTimers: .drop)
        #expect(dropped.isActive("r1"))
        #expect(dropped.pendingTimerCount == 0)
        #expect(dropped.now == .seconds(4))

        var early = try TestMachine(chart: chart, restoring: archive)
        try early.resume(after: .seconds(2), overdueTimers: .drop)
        #expect(early.pendingTimerCount == 1, "a timer not yet due is kept")
        try early.advance(by: .seconds(1))
        #expect(early.isActive("r2"))
    }

    // MARK: - Archives that do not fit

    func expectFailure(
        _ archive: Archive, chart: TestChart, _ matches: (MachineArchiveError) -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var machine = chart.makeMachine(context: Log(entries: ["untouched"]))
        do {
            machine = try TestMachine(chart: chart, restoring: archive)
            Issue.record("the archive was restored", sourceLocation: sourceLocation)
        } catch {
            #expect(matches(error), "\(error)", sourceLocation: sourceLocation)
            #expect(!error.description.isEmpty)
        }
        #expect(machine.context.entries == ["untouched"], sourceLocation: sourceLocation)
        #expect(machine.status == .notStarted, sourceLocation: sourceLocation)
    }

    @Test("an archive that does not fit the chart fails with a clear error and restores nothing")
    func misfits() throws {
        let chart = try richChart()
        var machine = try started(chart)
        try machine.send("pause")
        try machine.send("resume")
        try machine.send("next")
        let good = try machine.archive()
        _ = try TestMachine(chart: chart, restoring: good)

        var archive = good
        archive.version = 2
        expectFailure(archive, chart: chart) { $0 == .unsupportedVersion(found: 2, supported: 1) }

        archive = good
        archive.configuration.append("nowhere")
        expectFailure(archive, chart: chart) { $0 == .unknownState("nowhere") }

        archive = good
        archive.configuration.removeAll { $0 == "right" || $0 == "r1" }
        expectFailure(archive, chart: chart) {
            guard case .illegalConfiguration(let reason) = $0 else { return false }
            return reason.contains("'right'")
        }

        archive = good
        archive.configuration.append("l1")
        expectFailure(archive, chart: chart) {
            guard case .illegalConfiguration(let reason) = $0 else { return false }
            return reason.contains("2 active children")
        }

        archive = good
        archive.history = [.init(history: "l1", states: ["l1"])]
        expectFailure(archive, chart: chart) { $0 == .illegalHistory(state: "l1", reason: "it is not a history state") }

        archive = good
        archive.history = [.init(history: "deep", states: ["r1"])]
        expectFailure(archive, chart: chart) {
            guard case .illegalHistory(state: "deep", _) = $0 else { return false }
            return true
        }

        archive = good
        archive.timers.append(.init(deadline: 9, kind: .timeout(state: "l2a", index: 0, delay: 7_000_000_000)))
        expectFailure(archive, chart: chart) { $0 == .unknownTimeout(state: "l2a", delay: .seconds(7)) }

        archive = good
        archive.timers.append(.init(deadline: 9, kind: .timeout(state: "r2", index: 0, delay: 5_000_000_000)))
        expectFailure(archive, chart: chart) {
            if case .unknownTimeout(state: "r2", _) = $0 { return true }
            return false
        }

        archive = good
        archive.timers.append(.init(deadline: 9, kind: .named("no.such.event", id: nil)))
        expectFailure(archive, chart: chart) { $0 == .unknownEvent("no.such.event") }

        archive = good
        archive.status = .notStarted
        expectFailure(archive, chart: chart) {
            if case .illegalConfiguration = $0 { return true }
            return false
        }
    }

    @Test("numbers read from a hand-edited archive are checked before any arithmetic: a typed error, never a trap")
    func hostileNumbers() throws {
        let chart = try richChart()
        var machine = try started(chart)
        try machine.send("pause")
        try machine.send("resume")
        try machine.send("next")
        let good = try machine.archive()
        #expect(good.configuration.contains("l2a"))

        // A timer index at the end of Int: the position was computed before it was checked.
        for index in [Int.max, Int.min, -1, 1] {
            var archive = good
            archive.timers.append(.init(deadline: 9, kind: .timeout(state: "l2a", index: index, delay: 5_000_000_000)))
            expectFailure(archive, chart: chart) { $0 == .unknownTimeout(state: "l2a", delay: .seconds(5)) }
        }

        var archive = good
        archive.time = -1
        expectFailure(archive, chart: chart) {
            if case .illegalNumber(field: "time", _) = $0 { return true }
            return false
        }

        archive = good
        archive.time = .min
        expectFailure(archive, chart: chart) {
            if case .illegalNumber(field: "time", _) = $0 { return true }
            return false
        }

        archive = good
        archive.timers.append(.init(deadline: .min, kind: .named("pause", id: nil)))
        expectFailure(archive, chart: chart) {
            if case .illegalNumber(let field, _) = $0 { return field.hasPrefix("deadline") }
            return false
        }

        // A time at the end of Int64 restores, and the clock saturates there instead of wrapping:
        // the pending timeout falls due, and the machine goes on.
        archive = good
        archive.time = .max - 1
        var far = try TestMachine(chart: chart, restoring: archive)
        try far.advance(by: .seconds(10))
        try far.send("next")
        #expect(far.status == .running)
    }

    @Test(
        "state data that is missing or unreadable fails the restore; data of a type that is not Codable fails the archive"
    )
    func stateDataMisfits() throws {
        let chart = try richChart()
        let good = try started(chart).archive()
        #expect(good.stateData == [.init(state: "l1", json: #"{"number":1}"#)])

        var archive = good
        archive.stateData = []
        expectFailure(archive, chart: chart) { $0 == .stateData(state: "l1", reason: "the archive has no data for it") }

        archive = good
        archive.stateData = [.init(state: "l1", json: #"{"count":1}"#)]
        expectFailure(archive, chart: chart) {
            if case .stateData(state: "l1", _) = $0 { return true }
            return false
        }

        archive = good
        archive.stateData.append(.init(state: "r1", json: "{}"))
        expectFailure(archive, chart: chart) {
            $0 == .stateData(state: "r1", reason: "the state is not active or holds no data")
        }

        struct Opaque: Sendable {}
        let opaque = try TestChart(
            name: "opaque", elements: [.state("s", elements: [.stateData(Opaque.self) { _ in Opaque() }])])
        let machine = try started(opaque)
        #expect(throws: MachineArchiveError.stateDataNotCodable(state: "s", type: "Opaque")) { try machine.archive() }
    }

    @Test("machines that have not started, and machines that finished, round-trip too")
    func startAndFinish() throws {
        let chart = try TestChart(
            name: "short",
            elements: [
                .state("a", elements: [.transition(.events([.descriptor(EventDescriptor("go"))]), targets: ["done"])]),
                .state("done", kind: .final),
            ])
        let fresh = chart.makeMachine(context: Log())
        var restored = try roundTrip(fresh, chart)
        #expect(restored.status == .notStarted)
        try restored.start()
        #expect(restored.activeStates == ["a"])
        try restored.send("go")
        let finished = try roundTrip(restored, chart)
        #expect(finished.status == .finished)
        #expect(finished.activeStates == ["done"])
    }
}
