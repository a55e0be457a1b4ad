import Statecharts

/// The data of `error.execution` and `error.communication` events, as SCION gives it to
/// documents: `{"tagname": "assign", "line": 12, "column": 7, "reason": "..."}`.
enum SCXMLErrorData {
    /// The value of `_event.data` for a failure; an error a data model or executable content
    /// threw names its own element and position, which are more precise than the failure's.
    static func value(of failure: ExecutionFailure, evaluation: SCXMLEvaluationError?) -> SCXMLValue {
        let location = evaluation?.location ?? failure.location
        var fields: [String: SCXMLValue] = [
            "tagname": .string(evaluation?.element ?? tagName(of: failure.element)),
            "reason": .string(evaluation?.message ?? failure.reason),
        ]
        if let location {
            fields["line"] = .number(Double(location.line))
            fields["column"] = .number(Double(location.column))
        }
        return .object(fields)
    }

    /// The value for an error the executable content raises itself, such as `error.communication`
    /// for a `<send>` whose target cannot be reached.
    static func value(element: String, at location: SourcePosition, reason: String) -> SCXMLValue {
        .object([
            "tagname": .string(element), "line": .number(Double(location.line)),
            "column": .number(Double(location.column)), "reason": .string(reason),
        ])
    }

    /// An `error.execution` or `error.communication` event as a diagnostic: the failing element
    /// and the reason, at the element's position (`fallback` when the event gives none); `nil` for
    /// any other event.
    static func diagnostic(of event: ProcessedEvent<SCXMLEvent>, fallback: SourcePosition) -> SCXMLDiagnostic? {
        guard event.name == "error.execution" || event.name == "error.communication" else { return nil }
        if let failure = event.failure {
            let evaluation = event.error as? SCXMLEvaluationError
            let element = evaluation?.element ?? tagName(of: failure.element)
            let location = evaluation?.location ?? failure.location ?? fallback
            // A reason may already begin with the position and the element it is shown with.
            var reason = Substring(evaluation?.message ?? failure.reason)
            for prefix in ["\(location): ", "<\(element)>: "] where reason.hasPrefix(prefix) {
                reason = reason.dropFirst(prefix.count)
            }
            return SCXMLDiagnostic(.error, "\(event.name) from <\(element)>: \(reason)", at: location)
        }
        // Raised by executable content itself, with the data it gives documents.
        guard case .object(let fields)? = event.event?.data, case .string(let reason)? = fields["reason"] else {
            return nil
        }
        var location = fallback
        if case .number(let line)? = fields["line"], case .number(let column)? = fields["column"],
            let line = Int(exactly: line), let column = Int(exactly: column)
        {
            location = SourcePosition(file: fallback.file, line: line, column: column)
        }
        var element = ""
        if case .string(let name)? = fields["tagname"] { element = " from <\(name)>" }
        return SCXMLDiagnostic(.error, "\(event.name)\(element): \(reason)", at: location)
    }

    /// The SCXML element that plays the part of a chart element.
    static func tagName(of element: ExecutionFailure.Element) -> String {
        switch element {
        case .onEntry: return "onentry"
        case .onExit: return "onexit"
        case .transition, .guardCondition: return "transition"
        case .stateData: return "data"
        case .doneData: return "donedata"
        case .invoke: return "invoke"
        case .start: return "scxml"
        case .send: return "send"
        }
    }
}
