/// The one host of a machine: the machine, the clock its time follows, and the router its effects
/// leave through.
///
/// Every way a machine runs is a host of this type with its own clock and router:
/// - ``IsolatedStatechart`` and ``StatechartActor`` hold one whose clock follows a ``TimerWheel``
///   and whose router runs invocations as tasks and delivers sends to the machine's parent,
///   children and system;
/// - the tester and the path search of StatechartsTesting hold one on a ``ManualClock`` whose
///   router records what the machine asked for;
/// - a document's session (StatechartsSCXML's `SCXMLSession`) holds one for its top machine on a
///   ``ManualClock``, whose router holds the sessions the document invoked, the external queue
///   they share and the event I/O processors;
/// - an app drives a bare machine with one of its own.
///
/// Each call processes its event (or the time it lets pass) to completion, then settles: the
/// effects of the step go to the ``EffectRouter`` in order; a send the router answers with
/// ``SendRouting/ownQueue`` is processed next, as an event from outside; one it answers with
/// ``SendRouting/undelivered(reason:)`` is processed as `error.communication`; and so on until
/// the steps leave no effect. Then the clock is told the machine's next deadline. A step that
/// throws is settled too, before its error is thrown: what it did before it failed is routed.
///
/// ```swift
/// var host = MachineHost(machine: chart.makeMachine(context: Player()), router: outbox)
/// try host.start()
/// try host.send(.play)
/// try host.advance(by: .seconds(5))
/// ```
public struct MachineHost<Router: EffectRouter, Clock: HostClock> {
    /// The machine's type.
    public typealias Machine = StateMachine<Router.State, Router.Event, Router.Context>
    /// What a step throws.
    public typealias Failure = MachineError<Router.State, Router.Event>

    /// The machine.
    public var machine: Machine
    /// Where its effects go.
    public var router: Router
    /// What its time follows.
    public var clock: Clock

    /// A host of `machine` on `clock`, whose effects go to `router`.
    @inlinable
    public init(machine: Machine, router: Router, clock: Clock) {
        self.machine = machine
        self.router = router
        self.clock = clock
    }

    // MARK: - Steps, each settled

    /// Starts the machine, then settles.
    @inlinable
    public mutating func start() throws(Failure) {
        var observer = NoObserver<Router.State, Router.Event>()
        try start(observer: &observer)
    }

    /// Starts the machine, then settles, reporting every step to `observer`.
    @inlinable
    public mutating func start<Observer: MachineObserver>(
        observer: inout Observer
    ) throws(Failure) where Observer.State == Router.State, Observer.Event == Router.Event {
        try settling(observer: &observer) { host, observer throws(Failure) in
            try host.clock.beginStep(&host.machine, observer: &observer)
            try host.machine.start(observer: &observer)
        }
    }

    /// Processes `event` to completion, then settles.
    ///
    /// - Returns: Whether a transition handled `event` itself.
    @discardableResult
    @inlinable
    public mutating func send(_ event: Router.Event) throws(Failure) -> Bool {
        let handled: Bool
        do {
            handled = try sendWithoutSettling(event)
        } catch {
            try settleIfNeeded()
            throw error
        }
        try settleIfNeeded()
        return handled
    }

    /// Processes `event` to completion, then settles, reporting every step to `observer`.
    @discardableResult
    @inlinable
    public mutating func send<Observer: MachineObserver>(
        _ event: Router.Event, observer: inout Observer
    ) throws(Failure) -> Bool where Observer.State == Router.State, Observer.Event == Router.Event {
        try settling(observer: &observer) { host, observer throws(Failure) in
            try host.sendWithoutSettling(event, observer: &observer)
        }
    }

    /// Lets `duration` pass on the machine's time, firing the timers due by then, then settles.
    @inlinable
    public mutating func advance(by duration: Duration) throws(Failure) {
        var observer = NoObserver<Router.State, Router.Event>()
        try advance(by: duration, observer: &observer)
    }

    /// Lets `duration` pass, then settles, reporting every step to `observer`.
    @inlinable
    public mutating func advance<Observer: MachineObserver>(
        by duration: Duration, observer: inout Observer
    ) throws(Failure) where Observer.State == Router.State, Observer.Event == Router.Event {
        try settling(observer: &observer) { host, observer throws(Failure) in
            try host.clock.beginStep(&host.machine, observer: &observer)
            try host.machine.advance(by: duration, observer: &observer)
        }
    }

    /// Moves the machine's time to `instant` (measured from the machine's creation), firing the
    /// timers due by then, then settles. Moving to the past does nothing but settle.
    @inlinable
    public mutating func advance(to instant: Duration) throws(Failure) {
        var observer = NoObserver<Router.State, Router.Event>()
        try advance(to: instant, observer: &observer)
    }

    /// Moves the machine's time to `instant`, then settles, reporting every step to `observer`.
    @inlinable
    public mutating func advance<Observer: MachineObserver>(
        to instant: Duration, observer: inout Observer
    ) throws(Failure) where Observer.State == Router.State, Observer.Event == Router.Event {
        try settling(observer: &observer) { host, observer throws(Failure) in
            try host.clock.beginStep(&host.machine, observer: &observer)
            try host.machine.advance(to: instant, observer: &observer)
        }
    }

    /// Brings the machine's time to the clock's now, firing the timers due by then, then settles:
    /// what a host does when its clock wakes it. On a ``ManualClock``, this only settles.
    @inlinable
    public mutating func catchUp() throws(Failure) {
        var observer = NoObserver<Router.State, Router.Event>()
        try catchUp(observer: &observer)
    }

    /// Brings the machine's time to the clock's now, then settles, reporting every step to
    /// `observer`.
    @inlinable
    public mutating func catchUp<Observer: MachineObserver>(
        observer: inout Observer
    ) throws(Failure) where Observer.State == Router.State, Observer.Event == Router.Event {
        try settling(observer: &observer) { host, observer throws(Failure) in
            try host.clock.beginStep(&host.machine, observer: &observer)
        }
    }

    /// Delivers how an invocation ended (``StateMachine/deliver(_:from:)``), then settles.
    ///
    /// - Returns: Whether the invocation was running.
    @discardableResult
    @inlinable
    public mutating func deliver(
        _ outcome: InvocationOutcome<Router.Event>, from id: InvocationID
    ) throws(Failure) -> Bool {
        var observer = NoObserver<Router.State, Router.Event>()
        return try deliver(outcome, from: id, observer: &observer)
    }

    /// Delivers how an invocation ended (``StateMachine/deliver(_:from:)``), then settles,
    /// reporting every step to `observer`.
    ///
    /// - Returns: Whether the invocation was running.
    @discardableResult
    @inlinable
    public mutating func deliver<Observer: MachineObserver>(
        _ outcome: InvocationOutcome<Router.Event>, from id: InvocationID, observer: inout Observer
    ) throws(Failure) -> Bool where Observer.State == Router.State, Observer.Event == Router.Event {
        try settling(observer: &observer) { host, observer throws(Failure) in
            try host.clock.beginStep(&host.machine, observer: &observer)
            return try host.machine.deliver(outcome, from: id, observer: &observer)
        }
    }

    /// Processes `error.communication` for an event the machine sent that could not be
    /// delivered (``StateMachine/reportUndelivered(_:reason:)``), then settles. A machine that is
    /// not running takes nothing.
    @inlinable
    public mutating func reportUndelivered(
        _ outgoing: OutgoingEvent<Router.Event>, reason: String
    ) throws(Failure) {
        var observer = NoObserver<Router.State, Router.Event>()
        try reportUndelivered(outgoing, reason: reason, observer: &observer)
    }

    /// Processes `error.communication` for an event the machine sent that could not be
    /// delivered (``StateMachine/reportUndelivered(_:reason:)``), then settles, reporting every
    /// step to `observer`. A machine that is not running takes nothing.
    @inlinable
    public mutating func reportUndelivered<Observer: MachineObserver>(
        _ outgoing: OutgoingEvent<Router.Event>, reason: String, observer: inout Observer
    ) throws(Failure) where Observer.State == Router.State, Observer.Event == Router.Event {
        guard machine.status == .running else { return }
        try settling(observer: &observer) { host, observer throws(Failure) in
            try host.clock.beginStep(&host.machine, observer: &observer)
            try host.machine.reportUndelivered(outgoing, reason: reason, observer: &observer)
        }
    }

    /// Cancels the delayed events sent with identifier `id` that wait in the machine, then settles.
    ///
    /// - Returns: How many were cancelled.
    @discardableResult
    @inlinable
    public mutating func cancelDelayedEvents(id: String) throws(Failure) -> Int {
        let cancelled = machine.cancelDelayedEvents(id: id)
        try settleIfNeeded()
        return cancelled
    }

    // MARK: - Steps and settling apart

    /// Processes `event` to completion without settling: for a host that settles apart
    /// (``needsSettling``, ``settle(observer:)``), so that a step with nothing to settle costs
    /// nothing more.
    @inlinable @inline(__always)
    public mutating func sendWithoutSettling(_ event: Router.Event) throws(Failure) -> Bool {
        var observer = NoObserver<Router.State, Router.Event>()
        try clock.beginStep(&machine, observer: &observer)
        return try machine.send(event)
    }

    /// Processes `event` to completion without settling, reporting every step to `observer`.
    @inlinable
    public mutating func sendWithoutSettling<Observer: MachineObserver>(
        _ event: Router.Event, observer: inout Observer
    ) throws(Failure) -> Bool where Observer.State == Router.State, Observer.Event == Router.Event {
        try clock.beginStep(&machine, observer: &observer)
        return try machine.send(event, observer: &observer)
    }

    /// Whether a step may have left anything to settle: a machine without extras (no timer, queue,
    /// invocation or effect) on a clock that holds no wake-up has nothing.
    @inlinable
    public var needsSettling: Bool { machine.extras != nil || clock.isWaiting }

    /// Settles when a step may have left anything to settle.
    @inlinable
    public mutating func settleIfNeeded() throws(Failure) {
        guard needsSettling else { return }
        var observer = NoObserver<Router.State, Router.Event>()
        try settle(observer: &observer)
    }

    /// Routes the effects the steps left, and processes what comes back to the machine, until
    /// the steps leave none (``StateMachine/settleEffects(through:observer:)``); then tells the
    /// clock the machine's next deadline. The clock is told also when routing throws.
    @inlinable
    public mutating func settle<Observer: MachineObserver>(
        observer: inout Observer
    ) throws(Failure) where Observer.State == Router.State, Observer.Event == Router.Event {
        defer { clock.wake(atNanoseconds: machine.nextDeadlineNanoseconds) }
        if machine.extras?.hasEffects == true {
            try machine.settleEffects(through: &router, observer: &observer)
        }
    }

    /// Runs `step`, then settles, also when `step` throws; the step's error is thrown first.
    @inlinable
    mutating func settling<Result, Observer: MachineObserver>(
        observer: inout Observer, _ step: (inout Self, inout Observer) throws(Failure) -> Result
    ) throws(Failure) -> Result where Observer.State == Router.State, Observer.Event == Router.Event {
        let result: Result
        do {
            result = try step(&self, &observer)
        } catch {
            if needsSettling { try? settle(observer: &observer) }
            throw error
        }
        if needsSettling { try settle(observer: &observer) }
        return result
    }
}

extension MachineHost where Clock == ManualClock {
    /// A host of `machine` on a ``ManualClock``, whose effects go to `router`.
    @inlinable
    public init(machine: Machine, router: Router) {
        self.init(machine: machine, router: router, clock: ManualClock())
    }
}

extension MachineHost: Sendable where Router: Sendable, Machine: Sendable, Clock: Sendable {}

extension StateMachine {
    /// The machine's earliest pending deadline in nanoseconds of its time, while it runs;
    /// `Int64.max` when none is, or it is not running: what a host's clock is told after a step.
    @inlinable
    public var nextDeadlineNanoseconds: Int64 {
        status == .running ? extras?.timers.nextDeadline ?? .max : .max
    }

    /// Routes the effects the steps left through `router`, and processes what comes back to the
    /// machine (sends to its own queue, `error.communication` for what nobody took), until the
    /// steps leave none: what ``MachineHost`` does after every call.
    ///
    /// - Throws: What processing what came back throws; ``MachineError/microstepLimitExceeded(limit:configuration:)``
    ///   when it keeps coming back for more rounds than the machine's ``microstepLimit`` (a chart
    ///   that answers `error.communication` with another send nobody takes). The effects routed
    ///   so far stay routed.
    @inlinable
    public mutating func settleEffects<Router: EffectRouter, Observer: MachineObserver>(
        through router: inout Router, observer: inout Observer
    ) throws(MachineError<State, Event>)
    where
        Router.State == State, Router.Event == Event, Router.Context == Context, Observer.State == State,
        Observer.Event == Event
    {
        var unrouted = routeEffects(to: &router)
        var rounds = 0
        while !unrouted.isEmpty && status == .running {
            rounds += 1
            guard rounds <= microstepLimit else {
                throw .microstepLimitExceeded(limit: microstepLimit, configuration: activeStates)
            }
            for (outgoing, routing) in unrouted where status == .running {
                switch routing {
                case .ownQueue: try send(outgoing.event, observer: &observer)
                case .undelivered(let reason): try reportUndelivered(outgoing, reason: reason, observer: &observer)
                case .delivered: break
                }
            }
            unrouted = routeEffects(to: &router)
        }
    }
}
