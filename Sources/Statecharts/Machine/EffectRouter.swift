/// Where a host sends what its machine's steps asked for: the one place each kind of
/// ``MachineEffect`` is routed.
///
/// A machine records effects (``StateMachine/takeEffects()``); every host hands them to a router
/// through ``route(_:)``, the only `switch` over the kinds of effect. A host implements the kinds
/// it routes, and the others have defaults: an invocation nobody runs, a send nobody takes and a
/// log nobody reads are reported back, dropped or ignored as each default says. Adding a kind of
/// effect is therefore one case in ``MachineEffect`` and one requirement here, with its default.
///
/// ```swift
/// struct Outbox: EffectRouter {
///     typealias State = PlayerState
///     typealias Context = Player
///     var sent: [OutgoingEvent<PlayerEvent>] = []
///
///     mutating func send(_ outgoing: OutgoingEvent<PlayerEvent>) -> SendRouting {
///         sent.append(outgoing)
///         return .delivered
///     }
/// }
/// var host = MachineHost(machine: chart.makeMachine(context: Player()), router: Outbox())
/// try host.start()
/// try host.send(.play)
/// print(host.router.sent)
/// ```
///
/// The live machines (``StatechartActor``, ``IsolatedStatechart``), an SCXML session, the tester
/// and the path search of StatechartsTesting route through routers of their own.
public protocol EffectRouter<State, Event, Context> {
    /// The machine's states.
    associatedtype State: Hashable
    /// The machine's events.
    associatedtype Event: StatechartEvent where Event.Kind: Hashable
    /// The machine's context.
    associatedtype Context

    /// Starts an invocation (``MachineEffect/startInvocation(_:)``). By default nothing runs it:
    /// it stays running in the machine until its state is exited.
    mutating func startInvocation(_ start: InvocationStart<State, Event, Context>)
    /// Stops an invocation whose state was exited (``MachineEffect/cancelInvocation(_:)``). By
    /// default nothing, as nothing runs it.
    mutating func cancelInvocation(_ id: InvocationID)
    /// Delivers an event sent out of the machine (``MachineEffect/send(_:)``), and says what became
    /// of it. By default it is ``SendRouting/undelivered(reason:)``: nobody takes it.
    mutating func send(_ outgoing: OutgoingEvent<Event>) -> SendRouting
    /// Withdraws the delayed sends with this identifier that wait outside the machine
    /// (``MachineEffect/cancelSend(id:)``). By default nothing, as nothing waits.
    mutating func cancelSend(id: String)
    /// Writes a message (``MachineEffect/log(_:)``). By default it is dropped.
    mutating func log(_ record: MachineLog)
}

/// What a router did with an event a machine sent out.
public enum SendRouting: Sendable, Hashable {
    /// It was delivered, or will be after its delay: the router took it.
    case delivered
    /// It goes to the machine's own external queue: the host that routes processes it next.
    case ownQueue
    /// Nobody takes it: the machine gets `error.communication` with this reason
    /// (``StateMachine/reportUndelivered(_:reason:)``).
    case undelivered(reason: String)
}

extension EffectRouter {
    /// Routes one effect to the requirement of its kind: the only `switch` over ``MachineEffect``.
    ///
    /// - Returns: For a send, what became of it; `nil` for every other kind.
    @inlinable
    @discardableResult
    public mutating func route(_ effect: MachineEffect<State, Event, Context>) -> SendRouting? {
        switch effect {
        case .startInvocation(let start): startInvocation(start)
        case .cancelInvocation(let id): cancelInvocation(id)
        case .send(let outgoing): return send(outgoing)
        case .cancelSend(let id): cancelSend(id: id)
        case .log(let record): log(record)
        }
        return nil
    }

    /// Nothing runs the invocation.
    public mutating func startInvocation(_ start: InvocationStart<State, Event, Context>) {}
    /// Nothing runs invocations, so nothing stops.
    public mutating func cancelInvocation(_ id: InvocationID) {}
    /// Nobody takes the event.
    public mutating func send(_ outgoing: OutgoingEvent<Event>) -> SendRouting {
        .undelivered(reason: "this host delivers no events outside the machine")
    }
    /// Nothing waits.
    public mutating func cancelSend(id: String) {}
    /// The message is dropped.
    public mutating func log(_ record: MachineLog) {}
}

extension StateMachine {
    /// Takes the effects of the steps since the last call (``takeEffects()``) and routes each, in
    /// order, through `router`.
    ///
    /// - Parameter router: Where the effects go.
    /// - Returns: In order, the sends the router answered with ``SendRouting/ownQueue`` or
    ///   ``SendRouting/undelivered(reason:)``, for the host to process: the machine's own next
    ///   events, or `error.communication`. A router that answers every send itself leaves none.
    @inlinable
    @discardableResult
    public mutating func routeEffects<Router: EffectRouter>(
        to router: inout Router
    ) -> [(OutgoingEvent<Event>, SendRouting)]
    where Router.State == State, Router.Event == Event, Router.Context == Context {
        var unrouted: [(OutgoingEvent<Event>, SendRouting)] = []
        for effect in takeEffects() {
            guard let routing = router.route(effect), routing != .delivered, case .send(let outgoing) = effect
            else { continue }
            unrouted.append((outgoing, routing))
        }
        return unrouted
    }
}
