import Statecharts
import StatechartsSCXML
import Testing

/// A ``MachineTester`` of an SCXML document: events by name, and the values of its data model
/// compared as the context.
public typealias DocumentTester = MachineTester<String, SCXMLEvent, SCXMLContext, [String: SCXMLValue]>

extension MachineTester
where State == String, Event == SCXMLEvent, Context == SCXMLContext, Observed == [String: SCXMLValue] {
    /// A tester of one session of `chart`, which it starts.
    ///
    /// The document's machine runs alone: what a session would do for it stays an effect to
    /// assert (events sent to other sessions or through event I/O processors, `<invoke>`), except
    /// the events it sends to its own external queue, which the tester processes. The context
    /// compared is the value of every `<data>` the data model can read, by id. Each call (with the
    /// events the document sends itself) is one cascade of `limits`, as in a session: a call that
    /// goes past one throws `MachineError.limitExceeded`.
    ///
    /// - Parameters:
    ///   - chart: The document's chart.
    ///   - sessionID: The session identifier (`_sessionid`).
    ///   - limits: The limits the document runs under.
    ///   - sourceLocation: Where the failures the tester finds at its end are reported when the
    ///     test does not call ``MachineTester/finish(sourceLocation:)``.
    /// - Throws: What `StateMachine/start()` throws, or `MachineError.limitExceeded`.
    public convenience init(
        document chart: SCXMLChart, sessionID: String = "test", limits: SCXMLLimits = .default,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let info = SCXMLSessionInfo(id: sessionID, name: chart.document.name, limits: limits)
        let declared = chart.declaredData
        let ownTarget = info.scxmlLocation
        try self.init(
            machine: chart.standaloneMachine(info: info, limits: limits),
            observing: { SCXMLChart.values(of: declared, in: $0) }, isOwnQueue: { $0.target == ownTarget },
            runsEachCall: { call in try SCXMLChart.runCascade(limits: limits, call) }, sourceLocation: sourceLocation)
    }
}
