import Statecharts
import StatechartsSCXML

extension SCXMLChart {
    /// A machine of one session of the document, alone (what a session would do for it stays an
    /// effect), under `limits`: what ``DocumentTester`` and the path search run.
    func standaloneMachine(info: SCXMLSessionInfo, limits: SCXMLLimits) -> SCXMLSession.Machine {
        var machine = statechart.makeMachine(context: SCXMLContext(model: dataModel.init(session: info), info: info))
        machine.microstepLimit = limits.microsteps
        machine.prepareDeclaredSends(pendingTimers: limits.pendingTimers)
        return machine
    }

    /// Runs `call` as one cascade of `limits`, as a session runs each of its calls: the scripts of
    /// the whole call share the script time.
    ///
    /// - Throws: `MachineError.limitExceeded` when the call went past a limit; otherwise what the
    ///   call throws.
    static func runCascade(limits: SCXMLLimits, _ call: () throws -> Void) throws {
        let cascade = SCXMLCascade(limits: limits)
        var failure: (any Error)?
        SCXMLCascade.withCurrent(cascade) {
            do { try call() } catch { failure = error }
        }
        cascade.end()
        if let violation = cascade.violation { throw MachineError<String, SCXMLEvent>.limitExceeded(violation) }
        if let failure { throw failure }
    }

    /// Every `<data>` of the document, the top level's first, then each state's in document order.
    var declaredData: [SCXMLData] {
        var result = document.data
        func visit(_ node: SCXMLNode) {
            result += node.data
            node.children.forEach(visit)
        }
        document.states.forEach(visit)
        return result
    }

    /// The values of `declared` the data model of `context` can read, by id.
    static func values(of declared: [SCXMLData], in context: SCXMLContext) -> [String: SCXMLValue] {
        var model = context.model
        var values: [String: SCXMLValue] = [:]
        for data in declared {
            if let value = try? model.load(data.id, at: data.location) { values[data.id] = value }
        }
        return values
    }
}
