import Statecharts
import StatechartsSCXML
import StatechartsTesting
import Testing

/// A door that sounds an alarm when left open for 30 seconds: a log, a timeout, a raised event
/// and an invocation, each an effect the tester must see.
enum TesterDoor: Hashable, Sendable { case closed, open, alarm }

enum TesterDoorEvent: String, StatechartEvent, CaseIterable, Sendable {
    case open, close, alarmed, silenced
}

private struct Openings: Equatable, Sendable { var count = 0 }

private func makeDoor() throws -> Statechart<TesterDoor, TesterDoorEvent, Openings> {
    try Statechart<TesterDoor, TesterDoorEvent, Openings>("door", initial: .closed) {
        StateNode(.closed) {
            On(.open, to: .open) { scope in
                scope.context.count += 1
                scope.log("opened")
            }
        }
        StateNode(.open) {
            After(.seconds(30), to: .alarm)
            On(.close, to: .closed)
        }
        StateNode(.alarm) {
            OnEntry { $0.raise(.alarmed) }
            Invoke("siren") { _ in .silenced }
            On(.close, to: .closed)
        }
    }
}

/// The name a timeout's event has, as the tester reports it.
private let thirtySeconds = "after.30000ms.open"

@Suite("The exhaustive tester")
struct MachineTesterTests {
    @Test("a test that asserts every change and every effect passes")
    func everythingAsserted() throws {
        let tester = try MachineTester(makeDoor(), context: Openings())
        #expect(tester.state == TestedState(configuration: [.closed], context: Openings()))
        try tester.send(.open) {
            $0.configuration = [.open]
            $0.context.count = 1
        }
        tester.expect(.logged("opened"), .armed(thirtySeconds, dueIn: .seconds(30)))
        try tester.advance(by: .seconds(10))
        try tester.advance(by: .seconds(20)) { $0.configuration = [.alarm] }
        tester.expect(
            .fired(thirtySeconds), .raised("alarmed"), .invoked(InvocationID(rawValue: 0), state: "alarm"))
        try tester.send(.close) { $0.configuration = [.closed] }
        tester.expect(.cancelledInvocation(InvocationID(rawValue: 0)))
        tester.finish()
    }

    @Test("a step taken while the previous step's effects are unasserted fails, naming them")
    func unassertedEffectsBeforeAStep() throws {
        let tester = try MachineTester(makeDoor(), context: Openings())
        try withKnownIssue {
            try tester.send(.open) {
                $0.configuration = [.open]
                $0.context.count = 1
            }
            try tester.send(.close) { $0.configuration = [.closed] }
            tester.expect(.cancelledTimer(thirtySeconds))
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("must be asserted before send(close)") && text.contains("logged(opened)")
                && text.contains("armed(\(thirtySeconds), dueIn: 30.0 seconds)")
        }
        tester.finish()
    }

    @Test("a wrong expectation fails with a diff of expected and actual")
    func wrongExpectation() throws {
        let tester = try MachineTester(makeDoor(), context: Openings())
        try withKnownIssue {
            try tester.send(.open) {
                $0.configuration = [.alarm]
                $0.context.count = 1
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("− expected, + actual") && text.contains("−     [0]: .alarm")
                && text.contains("+     [0]: .open")
        }
        tester.skipEffects()
        try tester.send(.close) { $0.configuration = [.closed] }
        tester.expect(.cancelledTimer(thirtySeconds))
        tester.finish()
    }

    @Test("a change with no assertion at all fails")
    func unassertedChange() throws {
        let tester = try MachineTester(makeDoor(), context: Openings())
        try withKnownIssue {
            try tester.send(.open)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("gave no assertion of the change")
        }
        tester.skipEffects()
        try tester.send(.close) { $0.configuration = [.closed] }
        tester.expect(.cancelledTimer(thirtySeconds))
        tester.finish()
    }

    @Test("an effect that did not happen fails, with the effects that did")
    func missingEffect() throws {
        let tester = try MachineTester(makeDoor(), context: Openings())
        try tester.send(.open) {
            $0.configuration = [.open]
            $0.context.count = 1
        }
        withKnownIssue {
            tester.expect(.logged("closed"))
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("Expected the effect logged(closed)")
        }
        tester.expect(.logged("opened"), .armed(thirtySeconds, dueIn: .seconds(30)))
        try tester.send(.close) { $0.configuration = [.closed] }
        tester.expect(.cancelledTimer(thirtySeconds))
        tester.finish()
    }

    @Test("a test that ends with a timer pending or an invocation running fails, naming them")
    func pendingAtTheEnd() throws {
        let tester = try MachineTester(makeDoor(), context: Openings())
        try tester.send(.open) {
            $0.configuration = [.open]
            $0.context.count = 1
        }
        tester.expect(.logged("opened"), .armed(thirtySeconds, dueIn: .seconds(30)))
        withKnownIssue {
            tester.finish()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("timers pending: [\(thirtySeconds) at 30.0 seconds")
        }

        let alarmed = try MachineTester(makeDoor(), context: Openings())
        alarmed.exhaustivity = .off
        try alarmed.send(.open)
        try alarmed.advance(by: .seconds(30)) { $0.configuration = [.alarm] }
        alarmed.exhaustivity = .on
        alarmed.skipEffects()
        withKnownIssue {
            alarmed.finish()
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("invocations running: [invocation 0]")
        }
    }

    @Test("off, only what the test asserts is checked, and what it asserts must hold")
    func nonExhaustive() throws {
        let tester = try MachineTester(makeDoor(), context: Openings())
        tester.exhaustivity = .off
        try tester.send(.open) { $0.context.count = 1 }
        try tester.advance(by: .seconds(30))
        #expect(tester.state.configuration == [.alarm])
        try withKnownIssue {
            try tester.send(.close) { $0.context.count = 5 }
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("+   context: Openings(count: 1)")
        }
        tester.finish()
    }

    @Test("a document's call is one cascade: guards that each fit the script time, but not together, end it")
    func documentCascade() throws {
        let chart = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a" datamodel="ecmascript">
              <state id="a"><transition event="go" target="b"/></state>
              <state id="b">
                <transition cond="(function () { var end = Date.now() + 60; while (Date.now() &lt; end) {} return true; })()" target="c"/>
              </state>
              <state id="c">
                <transition cond="(function () { var end = Date.now() + 60; while (Date.now() &lt; end) {} return true; })()" target="b"/>
              </state>
            </scxml>
            """, dataModels: BuiltDataModels.all)
        guard chart.dataModel.names.contains("ecmascript") else { return }
        var limits = SCXMLLimits.default
        limits.scriptTime = .milliseconds(200)
        let tester = try DocumentTester(document: chart, limits: limits)
        #expect {
            try tester.send("go")
        } throws: { error in
            guard case MachineError<String, SCXMLEvent>.limitExceeded(let violation) = error else { return false }
            return violation.limit == "scriptTime" && [4, 7].contains(violation.location?.line)
        }
        tester.exhaustivity = .off
    }

    @Test("a document: its data compared by id, its own queue processed, a delayed send a timer")
    func document() throws {
        let chart = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="idle" datamodel="ecmascript">
              <datamodel><data id="count" expr="0"/></datamodel>
              <state id="idle">
                <transition event="go" target="busy">
                  <assign location="count" expr="count + 1"/>
                  <send event="tick" delay="2s" id="t"/>
                  <send event="started"/>
                  <log label="go" expr="count"/>
                </transition>
              </state>
              <state id="busy">
                <transition event="started" target="running"/>
              </state>
              <state id="running">
                <transition event="tick" target="idle"/>
                <transition event="stop" target="idle"><cancel sendid="t"/></transition>
              </state>
            </scxml>
            """, dataModels: BuiltDataModels.all)
        guard chart.dataModel.names.contains("ecmascript") else { return }
        let tester = try DocumentTester(document: chart)
        #expect(tester.state.context == ["count": .number(0)])
        try tester.send("go") {
            $0.configuration = ["running"]
            $0.context["count"] = .number(1)
        }
        tester.expect(.queued("started"), .logged("go: 1"), .armed("tick", dueIn: .seconds(2)))
        try tester.advance(by: .seconds(2)) { $0.configuration = ["idle"] }
        tester.expect(.fired("tick"))
        try tester.send("go") {
            $0.configuration = ["running"]
            $0.context["count"] = .number(2)
        }
        tester.expect(.queued("started"), .logged("go: 2"), .armed("tick", dueIn: .seconds(2)))
        try tester.send("stop") { $0.configuration = ["idle"] }
        tester.expect(.cancelledTimer("tick"))
        tester.finish()
    }
}

/// The door's paths, as swift-testing arguments.
private let doorPaths = (try? makeDoor())?.paths(covering: .transitions, context: Openings()) ?? []

@Suite("Paths through a typed chart, and its coverage")
struct TypedPathTests {
    @Test("the transition cover takes every transition of the door, the timeout as a wait")
    func transitionCover() throws {
        let chart = try makeDoor()
        let search = try chart.searchPaths(
            covering: .transitions, context: Openings(), events: TesterDoorEvent.allCases)
        #expect(search.unreached.isEmpty)
        #expect(!search.isTruncated)
        let taken = Set(search.paths.flatMap { $0.transitions.map(\.id) })
        #expect(taken == Set(chart.allTransitions.map(\.id)))
        #expect(search.paths.contains { $0.description.hasPrefix("open, wait 30s") })
    }

    @Test("each generated path, followed by a new machine, ends in its configuration", arguments: doorPaths)
    func generatedPath(_ path: ChartPath<TesterDoor, TesterDoorEvent>) throws {
        var machine = try makeDoor().makeMachine(context: Openings())
        try machine.start()
        try machine.follow(path)
        #expect(machine.configuration == path.configuration)
    }

    @Test("the shortest path to every configuration")
    func stateCover() throws {
        let paths = try makeDoor().paths(covering: .states, context: Openings())
        #expect(paths.map(\.description) == ["(start) → [closed]", "open → [open]", "open, wait 30s → [alarm]"])
    }

    @Test("a search out of time stops at once, says it was cut short, and keeps what it found")
    func timeLimit() throws {
        let chart = try makeDoor()
        var explorer = PathExplorer(events: TesterDoorEvent.allCases) { chart.makeMachine(context: Openings()) }
        explorer.timeLimit = .zero
        let search = try explorer.paths(covering: .transitions)
        #expect(search.isTruncated)
        #expect(search.paths.isEmpty, "no move was tried")
        #expect(search.unreached.count == 4)
    }

    @Test("coverage of a typed chart names what a run never did")
    func coverage() throws {
        let chart = try makeDoor()
        var machine = chart.makeMachine(context: Openings())
        var observer = CoverageObserver<TesterDoor, TesterDoorEvent>()
        try machine.start(observer: &observer)
        try machine.send(.open, observer: &observer)
        try machine.send(.close, observer: &observer)
        let coverage = ChartCoverage(chart, named: "door", record: observer.record)
        #expect(coverage.states.covered == 2 && coverage.states.total == 3)
        #expect(coverage.states.missed.first?.hasPrefix("alarm") == true)
        #expect(coverage.transitions.covered == 2 && coverage.transitions.total == 4)
        #expect(coverage.delayedEvents.covered == 0 && coverage.delayedEvents.total == 1)
        #expect(coverage.delayedEvents.missed.first?.hasPrefix("open after 30.0 seconds → alarm") == true)
    }
}
