import Foundation
import StatechartsTesting
import Testing

@testable import Statecharts

/// `OnEntry(send:after:id:)` and `OnExit(cancel:)` do what the closures
/// `OnEntry { $0.send(event, after: delay, id: id) }` and `OnExit { $0.cancel(id: id) }` do; written
/// as data, they let the quick step enter and exit their states, arming and cancelling the events
/// as it arms and cancels timeouts.
@Suite(.ownThread) struct DeclaredTimerTests {
    /// The media player of `Examples/media-player.scxml`, with its delayed `tick` and `idle` sent on
    /// entry and cancelled on exit as data (`declared`) or as closures; with a transition that
    /// sends an event out with a delay, so that cancels are also handed to the runtime.
    static func player(declared: Bool) throws -> TestChart {
        func send(_ event: NamedEvent, after delay: Duration, id: String) -> TestElement {
            declared ? .onEntry(send: event, after: delay, id: id) : .onEntry { $0.send(event, after: delay, id: id) }
        }
        func cancel(_ id: String) -> TestElement {
            declared ? .onExit(cancel: id) : .onExit { $0.cancel(id: id) }
        }
        func on(_ event: String, to target: String) -> TestElement {
            .transition(.events([.kind(event)]), targets: [target])
        }
        return try TestChart(
            name: "player", initial: ["stopped"],
            elements: [
                .state("stopped", elements: [.transition(.events([.kind("play")]), targets: ["active"])]),
                .state(
                    "active", kind: .parallel,
                    elements: [
                        .state(
                            "transport", initial: ["playback"],
                            elements: [
                                .state(
                                    "playback", initial: ["playing"],
                                    elements: [
                                        .history("resume", type: .deep, defaultTargets: ["playing"]),
                                        .state(
                                            "playing",
                                            elements: [
                                                send("tick", after: .seconds(1), id: "tick"),
                                                cancel("tick"),
                                                .transition(.events([.kind("tick")]), targets: ["playing"]),
                                                .transition(.events([.kind("pause")]), targets: ["paused"]),
                                            ]),
                                        .state(
                                            "paused",
                                            elements: [
                                                send("idle", after: .seconds(300), id: "idle"),
                                                send("tick", after: .seconds(300), id: "idle"),
                                                cancel("idle"),
                                                .transition(.events([.kind("play")]), targets: ["playing"]),
                                                .transition(.events([.kind("idle")]), targets: ["stopped"]),
                                            ]),
                                        .transition(.events([.kind("scrub")]), targets: ["scrubbing"]),
                                    ]),
                                .state(
                                    "scrubbing", initial: ["held"],
                                    elements: [
                                        .state("held", elements: [on("move", to: "dragging")]),
                                        .state("dragging", elements: [.transition(.events([.kind("move")]))]),
                                        .transition(.events([.kind("release")]), targets: ["resume"]),
                                    ]),
                            ]),
                        .state(
                            "volume", initial: ["audible"],
                            elements: [
                                .state(
                                    "audible",
                                    elements: [
                                        .transition(.events([.kind("mute")]), targets: ["muted"]),
                                        .transition(
                                            .events([.kind("share")]),
                                            action: {
                                                $0.send("shared", to: "friend", after: .seconds(2), id: "tick")
                                            }),
                                    ]),
                                .state("muted", elements: [on("mute", to: "audible")]),
                            ]),
                        .transition(.events([.kind("stop")]), targets: ["stopped"]),
                    ]),
            ])
    }

    static let events: [NamedEvent] = [
        "play", "pause", "mute", "share", "scrub", "move", "release", "stop", "tick", "idle",
    ]

    /// What a machine holds after a step: its configuration, its timers in the order they fall
    /// due, with their serials and identifiers, and the effects the step asked for.
    static func record(_ machine: inout TestMachine) -> String {
        let timers = machine.pendingTimers.map { "\($0.name)@\($0.deadline)#\($0.serial) \($0.id ?? "-")" }
        let effects = machine.takeEffects().map { effect in
            switch effect {
            case .send(let outgoing): "send \(outgoing.event) to \(outgoing.target) id \(outgoing.id ?? "-")"
            case .cancelSend(let id): "cancel \(id)"
            default: "\(effect)"
            }
        }
        return "\(machine.status) \(machine.configuration) timers \(timers) effects \(effects)"
    }

    @Test("sends and cancels written as data do what closures do, on the quick and the general path")
    func declaredAgreeWithClosures() throws {
        let declared = try Self.player(declared: true)
        let closures = try Self.player(declared: false)
        var generator = SplitMix64(seed: 43)
        var steps = 0
        var cancelsHandedOut = 0
        var timersFired = 0
        for _ in 0..<20 {
            var quick = declared.makeMachine(context: Log())
            var observed = declared.makeMachine(context: Log())
            var written = closures.makeMachine(context: Log())
            try quick.start()
            try observed.start()
            try written.start()
            #expect(Self.record(&quick) == Self.record(&written))
            #expect(Self.record(&observed) == Self.record(&written))
            for _ in 0..<80 {
                if generator.next() % 3 == 0 {
                    let delay = Duration.milliseconds(Int(generator.next() % 2_500))
                    let before = quick.pendingTimers.map(\.serial)
                    try quick.advance(by: delay)
                    try observed.advance(by: delay)
                    try written.advance(by: delay)
                    if quick.pendingTimers.map(\.serial) != before { timersFired += 1 }
                }
                let event = Self.events[Int(generator.next() % UInt64(Self.events.count))]
                // The declared chart takes the quick path, and the general one with an observer;
                // the closures' chart the general one.
                _ = try quick.send(event)
                var recorder = MachineRecorder<String, NamedEvent>()
                _ = try observed.send(event, observer: &recorder)
                _ = try written.send(event, observer: &recorder)
                let viaData = Self.record(&quick)
                let viaGeneral = Self.record(&observed)
                let viaClosures = Self.record(&written)
                #expect(viaData == viaClosures, "after \(event)")
                #expect(viaGeneral == viaClosures, "after \(event)")
                if viaData != viaClosures || viaGeneral != viaClosures { return }
                if viaData.contains("cancel ") { cancelsHandedOut += 1 }
                steps += 1
            }
        }
        #expect(steps == 1_600)
        #expect(cancelsHandedOut > 20, "\(cancelsHandedOut) steps handed cancels to the runtime")
        #expect(timersFired > 50, "\(timersFired) advances fired a timer")
    }

    @Test("a state with only sends on entry and cancels on exit, as data, is the quick step's")
    func declaredStatesTakeTheQuickStep() throws {
        let declared = try Self.player(declared: true).storage
        let written = try Self.player(declared: false).storage
        let tables = declared.tables
        let closures = written.tables
        #expect(tables.allowsParallelQuickSteps)
        let playing: UInt64 = 1 << UInt64(try #require(declared.stateIndices["playing"]))
        let paused: UInt64 = 1 << UInt64(try #require(declared.stateIndices["paused"]))
        // Exiting them is the quick step's to do with data, the general path's with closures.
        #expect(tables.quickExitWorkMask & (playing | paused) == 0)
        #expect(closures.quickExitWorkMask & (playing | paused) == playing | paused)
        #expect(tables.declaredTimerStateMask & (playing | paused) == playing | paused)
        #expect(closures.declaredTimerStateMask == 0)
        // Entering them too: the transitions into them have quick entry masks.
        let transitions = 0..<declared.layout.transitionCount
        #expect(transitions.contains { tables.quickEntryMasks[$0] & (playing | paused) != 0 })
        #expect(!transitions.contains { closures.quickEntryMasks[$0] & (playing | paused) != 0 })
    }

    @Test("a delayed send written as data runs in its place among the state's entry actions")
    func declaredSendsKeepTheirPlace() throws {
        let chart = try TestChart(
            name: "order", initial: ["a"],
            elements: [
                .state("a", elements: [.transition(.events([.kind("go")]), targets: ["b"])]),
                .state(
                    "b",
                    elements: [
                        .onEntry(send: "first", after: .seconds(1), id: "first"),
                        .onEntry { $0.context.append("closure sees \($0.pendingTimerCount) timers") },
                        .onEntry(send: "second", after: .seconds(1)),
                        .onEntry(send: "now", after: .zero),
                        .transition(.events([.kind("now")]), action: { $0.context.append("now") }),
                        .transition(.events([.kind("first")]), action: { $0.context.append("first") }),
                        .transition(.events([.kind("second")]), action: { $0.context.append("second") }),
                    ]),
            ])
        var machine = try started(chart)
        try machine.send("go")
        // A delay of zero queues the event at once, as `send(_:after:id:)` does.
        #expect(machine.context.entries == ["closure sees 1 timers", "now"])
        #expect(machine.pendingTimers.map(\.name) == ["first", "second"])
        try machine.advance(by: .seconds(1))
        #expect(machine.context.entries == ["closure sees 1 timers", "now", "first", "second"])
    }

    /// A chart whose identifier `t` is sent and cancelled both as data and by closures, in every
    /// pairing: `a` sends as data and cancels by a closure, `b` sends by a closure and cancels as
    /// data, `c` does both as data, and `d` cancels as data an identifier that no send written as
    /// data has.
    static func mixed() throws -> TestChart {
        func to(_ target: String) -> TestElement { .transition(.events([.kind("next")]), targets: [target]) }
        return try TestChart(
            name: "mixed", initial: ["a"],
            elements: [
                .state(
                    "a",
                    elements: [
                        .onEntry(send: "late", after: .seconds(5), id: "t"), .onExit { $0.cancel(id: "t") }, to("b"),
                    ]),
                .state(
                    "b",
                    elements: [
                        .onEntry { $0.send("late", after: .seconds(5), id: "t") }, .onExit(cancel: "t"), to("c"),
                    ]),
                .state(
                    "c", elements: [.onEntry(send: "late", after: .seconds(5), id: "t"), .onExit(cancel: "t"), to("d")]),
                .state(
                    "d",
                    elements: [
                        .onEntry { $0.send("late", after: .seconds(5), id: "u") }, .onExit(cancel: "u"), to("a"),
                    ]),
            ])
    }

    @Test("an identifier sent as data and cancelled by a closure, or the other way round, is cancelled")
    func identifiersMeetAcrossForms() throws {
        var machine = try started(Self.mixed())
        for round in 0..<3 {
            for state in ["a", "b", "c", "d"] {
                #expect(machine.isActive(state))
                // The timer a send written as data armed carries the identifier its chart
                // interned, and shows it as the string.
                #expect(machine.pendingTimers.map(\.id) == [state == "d" ? "u" : "t"], "round \(round), \(state)")
                try machine.send("next")
            }
        }
        #expect(machine.pendingTimers.map(\.id) == ["t"])
        // By the machine's own cancel, with the string.
        #expect(machine.cancelDelayedEvents(id: "u") == 0)
        #expect(machine.cancelDelayedEvents(id: "t") == 1)
        #expect(machine.pendingTimerCount == 0)
        try machine.advance(by: .seconds(10))
        #expect(machine.isActive("a"), "no cancelled timer fired")
    }

    @Test("a send written as data is found among other timers, and one cancel removes all that share its identifier")
    func declaredSendsInTheHeap() throws {
        let chart = try TestChart(
            name: "heap", initial: ["a"],
            elements: [
                .state(
                    "a",
                    elements: [
                        .onEntry { $0.send("other", after: .seconds(1), id: "t") },
                        .transition(.events([.kind("next")]), targets: ["b"]),
                    ]),
                .state(
                    "b",
                    elements: [
                        .onEntry(send: "late", after: .seconds(3), id: "t"),
                        .onEntry(send: "late", after: .seconds(2), id: "v"),
                        .onEntry(send: "late", after: .seconds(4), id: "t"),
                        .onExit(cancel: "t"),
                        .transition(.events([.kind("next")]), targets: ["a"]),
                        .transition(.events([.kind("other")])),
                    ]),
            ])
        var machine = try started(chart)
        try machine.send("next")
        #expect(machine.pendingTimers.map(\.id) == ["t", "v", "t", "t"])
        // `b`'s cancel removes the closure's timer with the string `t` and its own two; `a`'s
        // entry then sends its own again.
        try machine.send("next")
        #expect(machine.pendingTimers.map(\.id) == ["t", "v"])
        #expect(machine.pendingTimers.map(\.deadline) == [.seconds(1), .seconds(2)])
        try machine.send("next")
        #expect(machine.pendingTimers.map(\.id) == ["t", "v", "v", "t", "t"])
        // The machine's own cancel, with the string, finds them all too.
        #expect(machine.cancelDelayedEvents(id: "t") == 3)
        #expect(machine.pendingTimers.map(\.id) == ["v", "v"])
        #expect(machine.cancelDelayedEvents(id: "v") == 2)
        #expect(machine.cancelDelayedEvents(id: "t") == 0)
        #expect(machine.pendingTimerCount == 0)
    }

    @Test("an archive holds a send written as data with its identifier, and the restored machine cancels it")
    func declaredSendsArchived() throws {
        let chart = try Self.mixed()
        var machine = try started(chart)
        try machine.send("next")
        try machine.send("next")
        #expect(machine.isActive("c"))
        let archive = try machine.archive()
        guard case .event(_, let id)? = archive.timers.first?.kind else {
            Issue.record("the archive holds \(archive.timers)")
            return
        }
        #expect(id == "t")
        let data = try JSONEncoder().encode(archive)
        var restored = try TestMachine(
            chart: chart, restoring: JSONDecoder().decode(MachineArchive<String, NamedEvent, Log>.self, from: data))
        // The same timer; an archive numbers its timers afresh, so the serial is not compared.
        #expect(restored.pendingTimers.map { "\($0)" } == machine.pendingTimers.map { "\($0)" })
        // `c`'s cancel, written as data, finds the timer that the archive restored by its string.
        try restored.send("next")
        #expect(restored.isActive("d"))
        #expect(restored.pendingTimers.map(\.id) == ["u"])
    }
}
