import Statecharts
import Testing

/// Tests a machine exhaustively, step by step, on the machine's own clock: every change of its
/// configuration and context, and every effect of every step, must be asserted.
///
/// After each ``send(_:sourceLocation:assert:)`` or
/// ``advance(by:sourceLocation:assert:)``, the trailing closure changes the state
/// before the step into the state the test expects; a difference fails the test with a diff of
/// the two. The effects of the step (timers armed, cancelled and fired, events raised, queued or
/// sent out, invocations started and stopped, logs) wait to be asserted with
/// ``expect(_:sourceLocation:)`` before the next step; a step that leaves any
/// unasserted fails the test, naming them. At the end (``finish(sourceLocation:)``,
/// or when the tester is released), unasserted effects, pending timers and running invocations
/// fail the test too.
///
/// ```swift
/// let tester = try MachineTester(makePlayerChart(), context: Track(duration: 3))
/// try tester.send(.play) { $0.configuration = [.playing] }
/// tester.expect(.armed("after.1000ms.playing", dueIn: .seconds(1)))
/// ```
///
/// Failures are swift-testing issues, at the line of the call that found them. With ``exhaustivity`` set to
/// ``Exhaustivity/off``, only what the test asserts is checked.
///
/// Invocations do not run: the tester reports them as ``StepEffect/invoked(_:state:)`` and the test
/// delivers their outcome with ``complete(_:with:sourceLocation:assert:)``.
public final class MachineTester<State: Hashable, Event: StatechartEvent, Context, Observed: Equatable>
where Event.Kind: Hashable {
    /// The machine under test.
    public var machine: StateMachine<State, Event, Context> { host.machine }
    /// How much the test must assert; ``Exhaustivity/on`` unless set.
    public var exhaustivity: Exhaustivity = .on
    /// The effects of the last step that are not asserted yet.
    public private(set) var unassertedEffects: [StepEffect] = []

    private let observe: (Context) -> Observed
    /// The machine on the test's clock, with its effects recorded for the test (and its undelayed
    /// sends to its own external queue processed, as an SCXML session does).
    private var host: MachineHost<TesterRouter<State, Event, Context>, ManualClock>
    /// Runs each call on the machine with what follows from it: a document's, as one cascade.
    private let runsEachCall: (() throws -> Void) throws -> Void
    private var isFinished = false
    private let origin: SourceLocation

    /// A tester of `machine`, which it starts; the effects of the start wait to be asserted.
    ///
    /// - Parameters:
    ///   - machine: A machine that has not started.
    ///   - observe: What of the context the test compares, such as the context itself.
    ///   - isOwnQueue: Whether an event the machine sends out goes to its own external queue:
    ///     the tester processes such events (as ``StepEffect/queued(_:)``) instead of reporting
    ///     them as sent.
    ///   - sourceLocation: Where the failures the tester finds at its end are reported when the
    ///     test does not call ``finish(sourceLocation:)``.
    /// - Throws: What `StateMachine/start()` throws.
    public convenience init(
        machine: StateMachine<State, Event, Context>, observing observe: @escaping (Context) -> Observed,
        isOwnQueue: @escaping (OutgoingEvent<Event>) -> Bool = { _ in false },
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try self.init(
            machine: machine, observing: observe, isOwnQueue: isOwnQueue, runsEachCall: { try $0() },
            sourceLocation: sourceLocation)
    }

    /// A tester of `machine` whose calls, each with the events it queues itself, `runsEachCall` runs.
    init(
        machine: StateMachine<State, Event, Context>, observing observe: @escaping (Context) -> Observed,
        isOwnQueue: @escaping (OutgoingEvent<Event>) -> Bool,
        runsEachCall: @escaping (() throws -> Void) throws -> Void, sourceLocation: SourceLocation
    ) throws {
        host = MachineHost(machine: machine, router: TesterRouter(isOwnQueue: isOwnQueue))
        self.observe = observe
        self.runsEachCall = runsEachCall
        origin = sourceLocation
        unassertedEffects = try run(ownEvent: false) { host, recorder in try host.start(observer: &recorder) }
    }

    deinit {
        guard !isFinished else { return }
        checkTheEnd(sourceLocation: origin)
    }

    /// The active atomic states and the observed context, now.
    public var state: TestedState<State, Observed> {
        TestedState(configuration: machine.activeStates, context: observe(machine.context))
    }

    // MARK: - Steps

    /// Sends `event`, then checks the state against the one `update` makes of the state before.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - update: Changes the state before the step into the state expected after it; `nil`
    ///     when the step changes nothing.
    ///   - sourceLocation: Where a failure of the step is reported; the call's, filled in by the
    ///     compiler.
    /// - Throws: What the machine throws for the event (a limit, a machine not running), or what
    ///   `update` throws.
    public func send(
        _ event: Event, sourceLocation: SourceLocation = #_sourceLocation,
        assert update: ((inout TestedState<State, Observed>) throws -> Void)? = nil
    ) throws {
        try step("send(\(event))", update, sourceLocation: sourceLocation) {
            try run(ownEvent: true) { host, recorder in _ = try host.send(event, observer: &recorder) }
        }
    }

    /// Moves the machine's clock forward by `duration`, firing the timers that fall due, then
    /// checks the state against the one `update` makes of the state before.
    ///
    /// - Throws: What the machine throws while the timers fire, or what `update` throws.
    public func advance(
        by duration: Duration, sourceLocation: SourceLocation = #_sourceLocation,
        assert update: ((inout TestedState<State, Observed>) throws -> Void)? = nil
    ) throws {
        try step("advance(by: \(duration))", update, sourceLocation: sourceLocation) {
            // Deadline by deadline, so that a timer armed by one that fires, and fired or
            // cancelled later in the same advance, is seen armed too.
            let end = machine.now + duration
            var effects: [StepEffect] = []
            while let deadline = machine.nextDeadline, deadline > machine.now, deadline < end,
                machine.status == .running
            {
                effects += try run(ownEvent: false) { host, recorder in
                    try host.advance(by: deadline - host.machine.now, observer: &recorder)
                }
            }
            effects += try run(ownEvent: false) { host, recorder in
                try host.advance(by: end - host.machine.now, observer: &recorder)
            }
            return effects
        }
    }

    /// Delivers the outcome of the invocation `id` (as ``StepEffect/invoked(_:state:)`` named it), then
    /// checks the state against the one `update` makes of the state before.
    ///
    /// - Throws: What the machine throws for the outcome, or what `update` throws.
    public func complete(
        _ id: InvocationID, with outcome: InvocationOutcome<Event>, sourceLocation: SourceLocation = #_sourceLocation,
        assert update: ((inout TestedState<State, Observed>) throws -> Void)? = nil
    ) throws {
        try step("complete(\(id.rawValue))", update, sourceLocation: sourceLocation) {
            try run(ownEvent: false) { host, recorder in
                _ = try host.deliver(outcome, from: id, observer: &recorder)
            }
        }
    }

    // MARK: - Effects

    /// Asserts effects of the last step, in any order: each must be among the unasserted effects,
    /// and is taken from them.
    public func expect(
        _ effects: StepEffect..., sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for effect in effects {
            if let index = unassertedEffects.firstIndex(of: effect) {
                unassertedEffects.remove(at: index)
            } else {
                Self.report(
                    "Expected the effect \(effect), but the unasserted effects are \(Self.list(unassertedEffects))",
                    sourceLocation: sourceLocation)
            }
        }
    }

    /// Drops the unasserted effects of the last step without asserting them.
    public func skipEffects() { unassertedEffects.removeAll() }

    /// Ends the test: with ``Exhaustivity/on``, unasserted effects, pending timers and running
    /// invocations fail it, each named. Called when the tester is released, if the test did not.
    public func finish(
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        isFinished = true
        checkTheEnd(sourceLocation: sourceLocation)
    }

    // MARK: - Checking

    private func checkTheEnd(sourceLocation: SourceLocation) {
        guard exhaustivity == .on else { return }
        if !unassertedEffects.isEmpty {
            Self.report(
                "The test ended with effects not asserted: \(Self.list(unassertedEffects))",
                sourceLocation: sourceLocation)
        }
        let timers = machine.pendingTimers
        if !timers.isEmpty {
            Self.report(
                "The test ended with timers pending: \(Self.list(timers)) (advance the clock past them, or leave their states)",
                sourceLocation: sourceLocation)
        }
        let invocations = machine.runningInvocations
        if !invocations.isEmpty {
            Self.report(
                "The test ended with invocations running: \(Self.list(invocations.map(\.description)))",
                sourceLocation: sourceLocation)
        }
    }

    private func step(
        _ label: String, _ update: ((inout TestedState<State, Observed>) throws -> Void)?,
        sourceLocation: SourceLocation, _ body: () throws -> [StepEffect]
    ) throws {
        if exhaustivity == .on, !unassertedEffects.isEmpty {
            Self.report(
                "The effects of the previous step must be asserted before \(label): \(Self.list(unassertedEffects))",
                sourceLocation: sourceLocation)
        }
        unassertedEffects.removeAll()
        let before = state
        let effects = try body()
        unassertedEffects = effects
        let actual = state
        var expected: TestedState<State, Observed>
        switch exhaustivity {
        case .on:
            expected = before
            try update?(&expected)
        case .off:
            expected = actual
            try update?(&expected)
        }
        guard expected != actual else { return }
        let difference = ValueDiff.lines(expected, actual).map { "\n\n\($0)" } ?? ""
        let message =
            update == nil
            ? "\(label) changed the state, and the test gave no assertion of the change (− before, + after):"
            : "\(label) left a state other than the one expected (− expected, + actual):"
        Self.report(message + difference, sourceLocation: sourceLocation)
    }

    /// Runs `body` on the host with a recorder (the host processes the sends to the machine's own
    /// queue), and returns the step's effects.
    private func run(
        ownEvent: Bool,
        _ body: (
            inout MachineHost<TesterRouter<State, Event, Context>, ManualClock>, inout MachineRecorder<State, Event>
        ) throws ->
            Void
    ) throws -> [StepEffect] {
        let timersBefore = machine.pendingTimers
        var recorder = MachineRecorder<State, Event>()
        try runsEachCall { try body(&host, &recorder) }
        let outside = host.router.recorded
        host.router.recorded.removeAll()
        var result: [StepEffect] = []
        var fired: [String] = []
        for (index, event) in recorder.events.enumerated() {
            switch event.origin {
            case .external where ownEvent && index == 0: continue
            case .external: result.append(.queued(event.name))
            case .internal where !event.isRaisedByMachine: result.append(.raised(event.name))
            case .internal: continue
            case .timer:
                result.append(.fired(event.name))
                fired.append(event.name)
            }
        }
        result += recorder.failures.map { .failed(String(describing: $0.error)) }
        result += outside
        let timersAfter = machine.pendingTimers
        let serialsAfter = Set(timersAfter.map(\.serial))
        let serialsBefore = Set(timersBefore.map(\.serial))
        for timer in timersBefore where !serialsAfter.contains(timer.serial) {
            if let index = fired.firstIndex(of: timer.name) {
                fired.remove(at: index)
            } else {
                result.append(.cancelledTimer(timer.name))
            }
        }
        // A timer that fired without being pending before was armed, with no delay, in this step.
        result += fired.map { .armed($0, dueIn: .zero) }
        for timer in timersAfter where !serialsBefore.contains(timer.serial) {
            result.append(.armed(timer.name, dueIn: timer.deadline - machine.now))
        }
        return result
    }

    private static func report(_ message: String, sourceLocation: SourceLocation) {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }

    private static func list(_ items: [some CustomStringConvertible]) -> String {
        "[" + items.map(\.description).joined(separator: ", ") + "]"
    }
}

extension MachineTester where Observed == Context {
    /// A tester of a machine of `chart` with `context`, which it starts; the test compares the
    /// whole context.
    ///
    /// - Throws: What `StateMachine/start()` throws.
    public convenience init(
        _ chart: Statechart<State, Event, Context>, context: Context, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try self.init(
            machine: chart.makeMachine(context: context), observing: { $0 }, sourceLocation: sourceLocation)
    }
}

extension MachineTester where Context == Void, Observed == NoContext {
    /// A tester of a machine of `chart`, which has no context; it starts the machine.
    ///
    /// - Throws: What `StateMachine/start()` throws.
    public convenience init(
        _ chart: Statechart<State, Event, Void>, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try self.init(
            machine: chart.makeMachine(), observing: { _ in NoContext() }, sourceLocation: sourceLocation)
    }
}

/// A tester's router: records each effect as the test asserts it, and sends the machine's
/// undelayed events to its own external queue back to it.
struct TesterRouter<State: Hashable, Event: StatechartEvent, Context>: EffectRouter where Event.Kind: Hashable {
    /// Whether an event the machine sends out goes to its own external queue.
    let isOwnQueue: (OutgoingEvent<Event>) -> Bool
    /// The effects since the test last took them, in order.
    var recorded: [StepEffect] = []

    mutating func startInvocation(_ start: InvocationStart<State, Event, Context>) {
        recorded.append(.invoked(start.id, state: start.state.map { "\($0)" } ?? ""))
    }

    mutating func cancelInvocation(_ id: InvocationID) { recorded.append(.cancelledInvocation(id)) }

    mutating func send(_ outgoing: OutgoingEvent<Event>) -> SendRouting {
        if outgoing.delay == .zero && isOwnQueue(outgoing) { return .ownQueue }
        recorded.append(.sent(outgoing.event.name, to: outgoing.target, after: outgoing.delay))
        return .delivered
    }

    mutating func cancelSend(id: String) { recorded.append(.cancelledSend(id: id)) }

    mutating func log(_ record: MachineLog) { recorded.append(.logged(record.description)) }
}
