/// A machine on a clock that moves only when told to, whose effects leave through a router: the
/// host of the tester and the path search of StatechartsTesting, and of a bare machine an app
/// drives by hand.
///
/// Each call processes its event (or the time it lets pass) to completion, then settles: the
/// effects of the step go to the ``EffectRouter`` in order; a send the router answers with
/// ``SendRouting/ownQueue`` is processed next, as an event from outside; one it answers with
/// ``SendRouting/undelivered(reason:)`` is processed as `error.communication`; and so on until
/// the steps leave no effect.
///
/// ```swift
/// var host = MachineHost(machine: chart.makeMachine(context: Player()), router: outbox)
/// try host.start()
/// try host.send(.play)
/// try host.advance(by: .seconds(5))
/// ```
public struct MachineHost<Router: EffectRouter> {
    /// The machine's type.
    public typealias Machine = StateMachine<Router.State, Router.Event, Router.Context>

    /// The machine.
    public var machine: Machine
    /// Where its effects go.
    public var router: Router

    /// A host of `machine` whose effects go to `router`.
    public init(machine: Machine, router: Router) {
        self.machine = machine
        self.router = router
    }

    /// Starts the machine, then settles.
    public mutating func start() throws(MachineError<Router.State, Router.Event>) {
        var observer = NoObserver<Router.State, Router.Event>()
        try start(observer: &observer)
    }

    /// Starts the machine, then settles, reporting every step to `observer`.
    public mutating func start<Observer: MachineObserver>(
        observer: inout Observer
    ) throws(MachineError<Router.State, Router.Event>)
    where Observer.State == Router.State, Observer.Event == Router.Event {
        try machine.start(observer: &observer)
        try settle(observer: &observer)
    }

    /// Processes `event` to completion, then settles.
    ///
    /// - Returns: Whether a transition handled `event` itself.
    @discardableResult
    public mutating func send(_ event: Router.Event) throws(MachineError<Router.State, Router.Event>) -> Bool {
        var observer = NoObserver<Router.State, Router.Event>()
        return try send(event, observer: &observer)
    }

    /// Processes `event` to completion, then settles, reporting every step to `observer`.
    @discardableResult
    public mutating func send<Observer: MachineObserver>(
        _ event: Router.Event, observer: inout Observer
    ) throws(MachineError<Router.State, Router.Event>) -> Bool
    where Observer.State == Router.State, Observer.Event == Router.Event {
        let handled = try machine.send(event, observer: &observer)
        try settle(observer: &observer)
        return handled
    }

    /// Lets `duration` pass on the machine's clock, firing the timers due by then, then settles.
    public mutating func advance(by duration: Duration) throws(MachineError<Router.State, Router.Event>) {
        var observer = NoObserver<Router.State, Router.Event>()
        try advance(by: duration, observer: &observer)
    }

    /// Lets `duration` pass, then settles, reporting every step to `observer`.
    public mutating func advance<Observer: MachineObserver>(
        by duration: Duration, observer: inout Observer
    ) throws(MachineError<Router.State, Router.Event>)
    where Observer.State == Router.State, Observer.Event == Router.Event {
        try machine.advance(by: duration, observer: &observer)
        try settle(observer: &observer)
    }

    /// Delivers how an invocation ended (``StateMachine/deliver(_:from:)``), then settles.
    ///
    /// - Returns: Whether the invocation was running.
    @discardableResult
    public mutating func deliver<Observer: MachineObserver>(
        _ outcome: InvocationOutcome<Router.Event>, from id: InvocationID, observer: inout Observer
    ) throws(MachineError<Router.State, Router.Event>) -> Bool
    where Observer.State == Router.State, Observer.Event == Router.Event {
        let accepted = try machine.deliver(outcome, from: id, observer: &observer)
        try settle(observer: &observer)
        return accepted
    }

    /// Routes the effects the steps left, and processes what comes back to the machine, until
    /// the steps leave none.
    public mutating func settle<Observer: MachineObserver>(
        observer: inout Observer
    ) throws(MachineError<Router.State, Router.Event>)
    where Observer.State == Router.State, Observer.Event == Router.Event {
        try machine.settleEffects(through: &router, observer: &observer)
    }
}

extension MachineHost: Sendable where Router: Sendable, Machine: Sendable {}

extension StateMachine {
    /// Routes the effects the steps left through `router`, and processes what comes back to the
    /// machine (sends to its own queue, `error.communication` for what nobody took), until the
    /// steps leave none: what ``MachineHost`` and the live machines do after every call.
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
