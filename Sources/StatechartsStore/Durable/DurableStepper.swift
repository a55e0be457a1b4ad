#if Store
import Statecharts

/// The steps a fleet's worker takes on its machines, made where the fleet's own types are known.
///
/// ``DurableMachines`` is generic, and its worker runs in this module, where the engine's steps
/// would run as unspecialised generic code: about ten microseconds an event. These closures are
/// made in `@inlinable` code (the fleet's public initialiser), so the compiler specialises
/// the engine's step for the chart's own states, events and context, as it does for a live
/// machine in the app.
@usableFromInline
struct DurableStepper<State, Event, Context>: Sendable
where
    State: Hashable & Codable & Sendable, Event: StatechartEvent & Codable & Sendable,
    Event.Kind: Hashable & Sendable, Context: Codable & Sendable
{
    /// A machine in the fleet's host.
    @usableFromInline typealias Host = MachineHost<DurableEffects<State, Event, Context>, StoreClock>

    /// Starts the machine; what went wrong, or `nil`.
    @usableFromInline let start: @Sendable (inout Host) -> String?
    /// Sends the event to the machine; what went wrong, or `nil`.
    @usableFromInline let send: @Sendable (inout Host, Event) -> String?
    /// Lets the machine's time pass; what went wrong, or `nil`.
    @usableFromInline let catchUp: @Sendable (inout Host) -> String?

    /// The steps, specialised where this is called with concrete types.
    @inlinable
    init() {
        start = { host in
            do {
                try host.start()
                return nil
            } catch {
                return "\(error)"
            }
        }
        send = { host, event in
            do {
                _ = try host.send(event)
                return nil
            } catch {
                return "\(error)"
            }
        }
        catchUp = { host in
            do {
                try host.catchUp()
                return nil
            } catch {
                return "\(error)"
            }
        }
    }
}
#endif
