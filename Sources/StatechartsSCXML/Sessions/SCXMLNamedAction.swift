import Statecharts

/// The Swift code of an action that a document names rather than writes: an `<sc:action name="…">`
/// element of the project's namespace (``SCXMLExtensions/namespace``), as ``XStateImporter``
/// writes XState's `entry: ["startTimer"]`.
///
/// A session runs such an action with the code registered under its name
/// (``SCXMLSession/Options/actions``), where the element stands among the executable content. What
/// the code throws is `error.execution`, naming the element, and the rest of the block is skipped,
/// as for any element that fails. An action no code is given for does nothing, as an engine does
/// with markup it does not know; a compiled chart (`statechart generate`) asks the app for every
/// one instead, through its `Implementation` protocol.
///
/// ```swift
/// let options = SCXMLSession.Options(actions: [
///     "notify": SCXMLNamedAction { request in print(request.parameters ?? .null) }
/// ])
/// ```
public struct SCXMLNamedAction: Sendable {
    /// What a named action is given.
    public struct Request: Sendable {
        /// The action's name.
        public let name: String
        /// Its parameters (the element's `params`, XState's `params`), when the document gives them.
        public let parameters: SCXMLValue?
        /// The event being processed; `nil` on entry at the start and for eventless transitions.
        public let event: SCXMLEvent?
        /// The identifier of the session that runs it.
        public let sessionID: String
    }

    /// The code.
    public let perform: @Sendable (Request) throws -> Void

    /// An action that runs `perform`.
    public init(_ perform: @escaping @Sendable (Request) throws -> Void) {
        self.perform = perform
    }
}
