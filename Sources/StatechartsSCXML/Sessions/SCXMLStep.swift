import Statecharts

/// What one call of an ``SCXMLSession`` did: whether the event was handled, the microsteps and the
/// errors of the top session when the session records them, and what every session's `<log>`
/// elements wrote.
public struct SCXMLStep: Sendable, Equatable {
    /// For ``SCXMLSession/send(_:)``: whether a transition of the top session handled the event;
    /// `nil` for the other calls.
    public var handled: Bool?
    /// The top session's microsteps, in order, when ``SCXMLSession/Options/recordsMicrosteps`` is
    /// set; empty otherwise.
    public var microsteps: [Microstep<String>] {
        get { records?.microsteps ?? [] }
        _modify { yield &uniqueRecords().microsteps }
    }
    /// What the `<log>` elements of every session wrote, in order.
    public var logs: [SCXMLLogRecord] {
        get { records?.logs ?? [] }
        _modify { yield &uniqueRecords().logs }
    }
    /// The `error.execution` and `error.communication` events the top session processed, in
    /// order, each as the element that failed, where it is written and why, when
    /// ``SCXMLSession/Options/recordsMicrosteps`` is set; empty otherwise. A document may handle
    /// these events itself; they are here so that a tool can say why a document did what it did.
    public var errors: [SCXMLDiagnostic] {
        get { records?.errors ?? [] }
        _modify { yield &uniqueRecords().errors }
    }
    /// The names of the top session's timers that fell due and were processed (its delayed
    /// `<send>`s to itself), in order, when ``SCXMLSession/Options/recordsMicrosteps`` is set;
    /// empty otherwise.
    public var firedTimers: [String] {
        get { records?.firedTimers ?? [] }
        _modify { yield &uniqueRecords().firedTimers }
    }

    /// Whether this is a new step's value, as `SCXMLStep()` makes it: nothing handled, and no box
    /// of lists (a step whose lists were emptied still has one).
    var isUntouched: Bool { handled == nil && records == nil }

    /// The lists, in one box that a step without any (a call that logged nothing, in a session
    /// that does not record microsteps) does not have: such a step is copied and dropped without
    /// touching four arrays. Shared between copies until one of them changes it.
    private var records: Records?

    /// The lists of a step.
    private final class Records: @unchecked Sendable {
        // Changed only through ``SCXMLStep/uniqueRecords()``, by the step that alone holds it.
        var microsteps: [Microstep<String>] = []
        var logs: [SCXMLLogRecord] = []
        var errors: [SCXMLDiagnostic] = []
        var firedTimers: [String] = []

        init() {}

        init(copying other: Records) {
            microsteps = other.microsteps
            logs = other.logs
            errors = other.errors
            firedTimers = other.firedTimers
        }
    }

    /// The box of lists, made or copied so that this step alone holds it.
    private mutating func uniqueRecords() -> Records {
        // Asked before any other reference to the box is taken, which would make it shared.
        if isKnownUniquelyReferenced(&records), let unique = records { return unique }
        let made = records.map(Records.init(copying:)) ?? Records()
        records = made
        return made
    }

    /// Whether two steps say the same: the same `handled` and the same lists.
    public static func == (lhs: SCXMLStep, rhs: SCXMLStep) -> Bool {
        lhs.handled == rhs.handled && lhs.microsteps == rhs.microsteps && lhs.logs == rhs.logs
            && lhs.errors == rhs.errors && lhs.firedTimers == rhs.firedTimers
    }

    /// A step that did nothing yet: not handled, no lists.
    public init() {}

    /// A step from its parts.
    public init(
        handled: Bool? = nil, microsteps: [Microstep<String>] = [], logs: [SCXMLLogRecord] = [],
        errors: [SCXMLDiagnostic] = []
    ) {
        self.handled = handled
        if !microsteps.isEmpty || !logs.isEmpty || !errors.isEmpty {
            self.microsteps = microsteps
            self.logs = logs
            self.errors = errors
        }
    }

    /// Adds what a later call did: its microsteps, logs, errors and timers after these. `handled` stays
    /// this step's.
    public mutating func merge(_ later: SCXMLStep) {
        guard later.records != nil else { return }
        microsteps += later.microsteps
        logs += later.logs
        errors += later.errors
        firedTimers += later.firedTimers
    }
}
