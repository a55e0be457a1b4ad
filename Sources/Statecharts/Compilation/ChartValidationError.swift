/// The problems that stop a chart from being built: all of them, not only the first.
///
/// ```swift
/// do {
///     chart = try Statechart<S, E, C>(initial: .idle) { ... }
/// } catch {
///     for problem in error.problems { print(problem) }
///     // Game.swift:14:9: error: the transition on 'start' from 'idle' targets 'plaing', which is not a state of the chart
/// }
/// ```
public struct ChartValidationError: Error, Sendable, CustomStringConvertible {
    /// Every problem found, in document order.
    public var problems: [ChartProblem]

    /// Problems from their list.
    public init(problems: [ChartProblem]) { self.problems = problems }

    /// Every problem, one per line, after a summary line.
    public var description: String {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return (["The chart is invalid (\(count)):"] + problems.map { "  \($0)" }).joined(separator: "\n")
    }
}

/// One problem in a chart's definition.
public struct ChartProblem: Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, as a code to match on.
    public var code: Code
    /// A plain sentence saying what is wrong and where.
    public var message: String
    /// The name of the state it concerns, if any.
    public var state: String?
    /// Where the offending definition was written, if known.
    public var location: SourcePosition?

    /// A problem from its parts.
    public init(code: Code, message: String, state: String? = nil, location: SourcePosition? = nil) {
        self.code = code
        self.message = message
        self.state = state
        self.location = location
    }

    /// `file:line:column: error: message`, or the message alone without a location.
    public var description: String {
        guard let location else { return "error: \(message)" }
        return "\(location): error: \(message)"
    }

    /// The kinds of problem.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// The chart has no states.
        case emptyChart
        /// Two states share an identity.
        case duplicateState
        /// A transition, initial or history default names a state the chart lacks.
        case unknownTarget
        /// An initial state is not a descendant of its state, or is given where none can be.
        case invalidInitial
        /// Several targets that cannot be active together (they are not in different regions of
        /// a parallel state).
        case incompatibleTargets
        /// A history state outside a compound or parallel state, or with a bad default.
        case invalidHistory
        /// A final state with transitions or child states.
        case invalidFinalState
        /// A compound state whose only children are history states.
        case noChildStates
        /// An element where it has no meaning, such as a transition at the top of the chart.
        case misplacedElement
        /// A transition on events that names none.
        case missingEvent
        /// A timeout with a negative delay.
        case invalidDelay
        /// A completion transition in a state that never completes (atomic or final).
        case unreachableCompletion
        /// States nested deeper than the chart allows.
        case nestingTooDeep
    }
}
