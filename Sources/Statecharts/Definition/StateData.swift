/// Data that exists only while the enclosing state is active.
///
/// This is the statechart form of an enum case with a payload, such as
/// `case connecting(Peripheral, attempt: Int)`: the value is made when the state is entered (from
/// the context and the event that entered it), read and changed by actions through
/// ``Scope/data(of:as:)`` and ``Scope/updateData(of:as:_:)``, and dropped when the state is exited.
///
/// ```swift
/// StateNode(.connecting) {
///     StateData { scope in Attempt(peripheral: scope.context.peripheral, number: 1) }
///     On(.retry, to: .connecting, type: .internal) { scope in
///         scope.updateData(of: .connecting, as: Attempt.self) { $0.number += 1 }
///     }
/// }
/// ```
public struct StateData<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let element: ChartElement<State, Event, Context>

    /// Data made on entry.
    public init<Value: Sendable>(
        _ type: Value.Type = Value.self,
        _ make: @escaping @Sendable (borrowing Scope<State, Event, Context>) throws -> Value
    ) {
        element = .stateData(type, make)
    }

    /// Data made on entry, of a `Codable` type: saved in a ``MachineArchive`` with the rest of the
    /// machine.
    public init<Value: Sendable & Codable>(
        _ type: Value.Type = Value.self,
        _ make: @escaping @Sendable (borrowing Scope<State, Event, Context>) throws -> Value
    ) {
        element = .stateData(type, make)
    }
}

/// The data carried by the `done.state` event that entering the enclosing final state raises
/// (SCXML `<donedata>`); ``OnDone`` transitions read it as ``Scope/doneData``.
public struct DoneData<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let element: ChartElement<State, Event, Context>

    /// Done data computed when the final state is entered.
    public init(_ make: @escaping @Sendable (borrowing Scope<State, Event, Context>) throws -> any Sendable) {
        element = .doneData(make)
    }
}

extension StateData: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension DoneData: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}
