import Statecharts

/// The Swift code of a guard that a document names rather than writes: a transition's `sc:guard`
/// attribute of the project's namespace (``SCXMLExtensions/namespace``), as ``XStateImporter``
/// writes XState's `guard: "isReady"`.
///
/// A session evaluates such a guard with the one registered under its name
/// (``SCXMLSession/Options/guards``). A guard no code is given for is an error of the document's
/// run, as in XState: the transition is not taken, and the session gets `error.execution` naming
/// the guard and where it is. A transition with both `cond` and a named guard is taken when both
/// hold.
///
/// ```swift
/// let options = SCXMLSession.Options(guards: [
///     "isReady": SCXMLNamedGuard { request in request.event?.name == "go" }
/// ])
/// ```
public struct SCXMLNamedGuard: Sendable {
    /// What a named guard is asked.
    public struct Request: Sendable {
        /// The guard's name.
        public let name: String
        /// Its parameters (`sc:guard-params`, XState's `params`), when the document gives them.
        public let parameters: SCXMLValue?
        /// The event the transition would be taken on; `nil` for an eventless transition.
        public let event: SCXMLEvent?
        /// The identifier of the session that asks.
        public let sessionID: String
    }

    /// The test: whether the transition may be taken.
    public let test: @Sendable (Request) -> Bool

    /// A guard that answers with `test`.
    public init(_ test: @escaping @Sendable (Request) -> Bool) {
        self.test = test
    }

    /// A guard that always answers `value`: for a run from the command line
    /// (`statechart run --guard isReady=true`).
    public static func constant(_ value: Bool) -> SCXMLNamedGuard {
        SCXMLNamedGuard { _ in value }
    }
}
