/// A problem a check found in a chart before it runs: what, how serious and where.
///
/// ```swift
/// for diagnostic in chart.diagnostics() {
///     print(diagnostic)   // "Player.swift:42:13: warning: the state 'buffering' can never be entered"
/// }
/// ```
///
/// See ``Statechart/diagnostics()`` for the checks.
public struct ChartDiagnostic<State: Hashable>: Hashable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable, Codable, Comparable {
        /// Worth knowing; not a defect.
        case note
        /// Probably a defect: the chart runs, but part of it can never do what it says.
        case warning
        /// A defect.
        case error

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }

        /// Whether `lhs` is less serious than `rhs`.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// What a check found.
    public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        /// No sequence of events enters the state.
        case unreachableState
        /// No sequence of events enters the final state: its parent never completes through it.
        case unreachableFinalState
        /// An atomic state that is not final and that no transition leaves, once entered.
        case trap
        /// A transition that can never fire because an earlier transition of the same state, with
        /// no guard, takes every event it would.
        case shadowedTransition
        /// Two transitions of one state, neither guarded, on the same event: the first in document
        /// order always wins and the second never fires.
        case conflictingTransitions
        /// Transitions in two regions of a parallel state, neither guarded, on the same event, that
        /// both leave the parallel state: only the first in document order is taken.
        case conflictingRegions
        /// A state with ``OnDone`` transitions that can never complete, so they never fire.
        case neverCompletes
    }

    /// How serious it is.
    public var severity: Severity
    /// Which check found it.
    public var code: Code
    /// What is wrong, in a sentence naming the states and events concerned.
    public var message: String
    /// The state concerned.
    public var state: State?
    /// Where the state or transition concerned was written.
    public var location: SourcePosition?

    /// A diagnostic from its parts.
    public init(_ severity: Severity, _ code: Code, _ message: String, state: State?, location: SourcePosition?) {
        self.severity = severity
        self.code = code
        self.message = message
        self.state = state
        self.location = location
    }

    /// `file:line:column: severity: message [code]`, the form compilers and editors understand.
    public var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return "\(prefix)\(severity.rawValue): \(message) [\(code.rawValue)]"
    }
}

extension ChartDiagnostic: Sendable where State: Sendable {}
