/// A context that takes part in the algorithm: it is told of each event before the machine
/// selects transitions for it.
///
/// This is how an SCXML data model binds the variable `_event` that conditions and executable
/// content read. A context that does not conform is simply read and changed by actions; a chart
/// whose context conforms calls ``bind(_:)`` for every event, internal, external or from a timer.
public protocol DataModel: Sendable {
    /// The chart's event type.
    associatedtype Event: StatechartEvent

    /// The machine is about to select transitions for `event`.
    mutating func bind(_ event: ProcessedEvent<Event>)
}
