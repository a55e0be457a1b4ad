/// What ``MachineTester`` compares after each step: the active atomic states, and the context
/// (or, for a document, the values of its data model).
public struct TestedState<State: Hashable, Context: Equatable>: Equatable {
    /// The active atomic states, in document order (`StateMachine/activeStates`).
    public var configuration: [State]
    /// The context, or what the tester observes of it.
    public var context: Context

    /// A state from its parts.
    public init(configuration: [State], context: Context) {
        self.configuration = configuration
        self.context = context
    }
}

extension TestedState: Sendable where State: Sendable, Context: Sendable {}

/// The context of a chart that has none (`Void`), as ``MachineTester`` compares it: always equal.
public struct NoContext: Hashable, Sendable {
    /// The empty context.
    public init() {}
}

/// How much a ``MachineTester`` makes a test assert.
public enum Exhaustivity: Sendable, Hashable {
    /// Every change of state, every effect of every step, and, at the end, no pending timer and no
    /// running invocation: anything not asserted fails the test.
    case on
    /// Only what the test asserts: an assertion closure changes the actual state, and what it
    /// changes must already be so; effects may go unasserted; the end checks nothing. For
    /// integration tests that follow one thread through a larger machine.
    case off
}
