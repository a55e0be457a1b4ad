import Statecharts
import StatechartsSCXML

extension SCXMLChart {
    /// Searches sessions of this document for paths covering `coverage`.
    ///
    /// Each session runs alone, as ``DocumentTester`` runs it: the events it sends its own queue
    /// are processed, the rest dropped; each call with what it queues itself is one cascade of
    /// `limits`, and a call that goes past one ends its path. Two states of the search differ by
    /// configuration, pending timers and the values of the document's `<data>`.
    ///
    /// - Parameters:
    ///   - coverage: Every configuration, or every transition.
    ///   - events: The names of the events to try; by default ``externalEventNames``: every
    ///     event the document's transitions name but its timers, which come as the search lets
    ///     time pass, as `wait` steps.
    ///   - limits: The limits each session runs under.
    ///   - maximumDepth: The most steps in a path.
    ///   - maximumStates: The most distinct states visited.
    ///   - timeLimit: The most time the whole search may take; `nil` for no bound.
    /// - Throws: What the session's start throws.
    public func searchPaths(
        covering coverage: PathCoverage, events: [String]? = nil, limits: SCXMLLimits = .default,
        maximumDepth: Int = 16, maximumStates: Int = 20_000, timeLimit: Duration? = nil
    ) throws -> PathSearch<String, SCXMLEvent> {
        let info = SCXMLSessionInfo(id: "paths", name: document.name, limits: limits)
        let declared = declaredData
        let ownTarget = info.scxmlLocation
        var explorer = PathExplorer<String, SCXMLEvent, SCXMLContext>(
            events: (events ?? externalEventNames).map { SCXMLEvent($0) },
            key: { AnyHashable(SCXMLChart.values(of: declared, in: $0)) },
            makeMachine: { self.standaloneMachine(info: info, limits: limits) })
        explorer.isOwnQueue = { $0.target == ownTarget }
        explorer.runsEachCall = { call in try SCXMLChart.runCascade(limits: limits, call) }
        explorer.maximumDepth = maximumDepth
        explorer.maximumStates = maximumStates
        explorer.timeLimit = timeLimit
        return try explorer.paths(covering: coverage)
    }
}

extension SCXMLChart {
    /// The events a user sends the document: every event its transitions name
    /// (`Statechart/eventNames`: `done.*` and `error.*` left out), but its timers
    /// (`SCXMLDocument.timerEventNames`), which come when time passes.
    public var externalEventNames: [String] {
        let timers = document.timerEventNames
        return statechart.eventNames.filter { !timers.contains($0) }
    }
}
