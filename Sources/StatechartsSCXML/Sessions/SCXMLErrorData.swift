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
