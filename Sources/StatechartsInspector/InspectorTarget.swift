#if Inspector
/// A machine the inspector shows and drives: an SCXML session of `statechart inspect`, or a live
/// machine of an app (``InspectorServer/attach(_:port:token:events:isolation:)``).
///
/// The server calls it from its own tasks; a target hops to wherever its machine lives.
public protocol InspectorTarget: AnyObject, Sendable {
    /// The chart's name, for the page's title.
    var chartName: String { get }
    /// The chart as SVG, each state a group with `data-state` (`Statechart.svg()`).
    var svg: String { get }
    /// What the page may do besides watching.
    var abilities: InspectorAbilities { get }

    /// Starts reporting: returns the first step of the timeline (index 0, the machine as it is),
    /// and calls `report` for every later step, in order.
    func connect(report: @escaping @Sendable (InspectorStep) -> Void) async -> InspectorStep

    /// The machine now.
    func snapshot() async -> InspectorSnapshot

    /// Sends an event and reports the step it takes.
    ///
    /// - Throws: ``InspectorError/sendingNotAllowed``, or an error the page shows.
    func send(_ event: InspectorEvent) async throws(InspectorError)

    /// Puts the machine back as it was after the step `index` of the timeline, and reports that
    /// step again: the timeline goes on from there.
    ///
    /// - Throws: ``InspectorError/timeTravelNotSupported``, or an error the page shows.
    func resume(from index: Int) async throws(InspectorError)

    /// Moves the machine's virtual clock on, reporting a step for each instant at which timers fire.
    ///
    /// - Throws: ``InspectorError/clockNotControlled``, or an error the page shows.
    func advance(by seconds: Double) async throws(InspectorError)

    /// Stops reporting: the server is stopping.
    func disconnect() async
}

/// What the page of an ``InspectorTarget`` may do besides watching.
public struct InspectorAbilities: Sendable, Hashable, Codable {
    /// Whether the page may send events.
    public var sending: Bool
    /// Whether the page may resume from an earlier step.
    public var timeTravel: Bool
    /// Whether the page controls the clock (advance by, run in real time).
    public var clock: Bool

    /// Abilities.
    public init(sending: Bool, timeTravel: Bool, clock: Bool) {
        self.sending = sending
        self.timeTravel = timeTravel
        self.clock = clock
    }
}
#endif
