import Statecharts

/// A central's reports, fanned out to every subscriber: what ``SimulatedCentral`` and
/// `CoreBluetoothCentral` give ``BluetoothCentral/events()``, and what an app's own central
/// can use.
///
/// Each subscriber gets its own stream, which starts with what the central knows already (the
/// restoration the system made at launch, then the current state) and goes on with every report
/// published after it subscribed, in the order published.
public final class CentralEventHub: Sendable {
    private let hub: Locked<HubState>

    private struct HubState: ~Copyable {
        var subscribers: [Int: Subscriber] = [:]
        var nextKey = 0
        var state: CentralState
        var restoration: [RestoredPeripheral]?
        var isFinished = false
    }

    private struct Subscriber {
        var continuation: AsyncStream<CentralEvent>.Continuation
        var delivered: ReportCounter?
    }

    /// A hub for a central whose radio is in `state`.
    public init(state: CentralState = .unknown) { hub = Locked(HubState(state: state)) }

    /// The radio's state, as last published.
    public var state: CentralState { hub.withLock { $0.state } }

    /// A new subscriber's stream.
    public func subscribe() -> AsyncStream<CentralEvent> { subscribe(counting: nil) }

    /// A new subscriber's stream, counting in `delivered` every report it is given.
    package func subscribe(counting delivered: ReportCounter?) -> AsyncStream<CentralEvent> {
        let (stream, continuation) = AsyncStream<CentralEvent>.makeStream()
        let key: Int? = hub.withLock { hub in
            guard !hub.isFinished else { return nil }
            let key = hub.nextKey
            hub.nextKey += 1
            // Given under the lock, so that nothing published in between comes first.
            if let restoration = hub.restoration {
                continuation.yield(.willRestore(restoration))
                delivered?.increment()
            }
            continuation.yield(.stateChanged(hub.state))
            delivered?.increment()
            hub.subscribers[key] = Subscriber(continuation: continuation, delivered: delivered)
            return key
        }
        guard let key else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.hub.withLock { _ = $0.subscribers.removeValue(forKey: key) }
        }
        return stream
    }

    /// Gives `event` to every subscriber; a state or a restoration is also kept for those who
    /// subscribe later.
    public func publish(_ event: CentralEvent) {
        hub.withLock { hub in
            guard !hub.isFinished else { return }
            switch event {
            case .stateChanged(let state): hub.state = state
            case .willRestore(let peripherals): hub.restoration = peripherals
            default: break
            }
            for subscriber in hub.subscribers.values {
                subscriber.continuation.yield(event)
                subscriber.delivered?.increment()
            }
        }
    }

    /// Ends every stream: the central reports nothing more.
    public func finish() {
        let continuations = hub.withLock { hub in
            hub.isFinished = true
            let continuations = hub.subscribers.values.map(\.continuation)
            hub.subscribers.removeAll()
            return continuations
        }
        for continuation in continuations { continuation.finish() }
    }

    /// How many subscribers there are.
    public var subscriberCount: Int { hub.withLock { $0.subscribers.count } }

    deinit { finish() }
}
