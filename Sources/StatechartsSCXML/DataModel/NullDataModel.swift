import Statecharts

/// SCXML's null data model: no variables; conditions are `In(stateID)` tests.
///
/// Value expressions are string literals (`'pass'`, `"done"`), which `<log>` prints. A document
/// that declares `datamodel="ecmascript"` but uses only these forms means the same under both
/// models, so it can run on this one; any other expression is reported when the chart is built.
public struct NullDataModel: SCXMLDataModel {
    /// `"null"`.
    public static var names: Set<String> { ["null"] }

    /// Nothing for a new session.
    public init(session: SCXMLSessionInfo) {}

    /// Accepts `In(id)` conditions and string literal values.
    public static func problem(with expression: SCXMLExpression, as use: SCXMLExpressionUse) -> String? {
        switch use {
        case .condition:
            return stateTest(expression.text) == nil
                ? "the null data model cannot evaluate the condition '\(expression.text)'; it knows only In(stateID)"
                : nil
        case .value:
            return stringLiteral(expression.text) == nil
                ? "the null data model cannot evaluate '\(expression.text)'; it knows only string literals" : nil
        case .location:
            return "the null data model has no variables, so '\(expression.text)' cannot be a location"
        }
    }

    /// The null data model has no variables and no scripts.
    public static func problem(with feature: SCXMLFeature) -> String? {
        "the null data model has no variables or scripts, so it cannot run \(feature.element)"
    }

    /// No expression of the null data model can read `_event`, so its machines are not told of
    /// each event.
    public static var readsBoundEvents: Bool { false }

    /// Nothing to bind.
    public mutating func bind(_ event: SCXMLEvent) {}

    /// Evaluates `In(id)`.
    public mutating func condition(_ expression: SCXMLExpression, isActive: (String) -> Bool) throws -> Bool {
        guard let state = Self.stateTest(expression.text) else {
            throw SCXMLEvaluationError(
                "the null data model cannot evaluate '\(expression.text)'", at: expression.location)
        }
        return isActive(state)
    }

    /// Evaluates a string literal.
    public mutating func value(_ expression: SCXMLExpression, isActive: (String) -> Bool) throws -> SCXMLValue {
        guard let text = Self.stringLiteral(expression.text) else {
            throw SCXMLEvaluationError(
                "the null data model cannot evaluate '\(expression.text)'", at: expression.location)
        }
        return .string(text)
    }

    /// Unsupported: reported when the chart is built.
    public mutating func declare(_ data: SCXMLData) throws { throw Self.unsupported(.data, at: data.location) }

    /// Unsupported: reported when the chart is built.
    public mutating func initialize(_ data: SCXMLData, isActive: (String) -> Bool) throws {
        throw Self.unsupported(.data, at: data.location)
    }

    /// Unsupported: reported when the chart is built.
    public mutating func assign(
        to location: SCXMLExpression, expression: SCXMLExpression?, content: SCXMLInlineContent?,
        isActive: (String) -> Bool
    ) throws { throw Self.unsupported(.assign, at: location.location) }

    /// Unsupported: reported when the chart is built.
    public mutating func store(_ value: SCXMLValue, in location: String, at sourceLocation: SourcePosition) throws {
        throw Self.unsupported(.variables, at: sourceLocation)
    }

    /// Unsupported: reported when the chart is built.
    public mutating func load(_ location: String, at sourceLocation: SourcePosition) throws -> SCXMLValue {
        throw Self.unsupported(.variables, at: sourceLocation)
    }

    /// Unsupported: reported when the chart is built.
    public mutating func run(_ script: SCXMLScript, isActive: (String) -> Bool) throws {
        throw Self.unsupported(.script, at: script.location)
    }

    /// Unsupported: reported when the chart is built.
    public mutating func items(of array: SCXMLExpression, isActive: (String) -> Bool) throws -> [SCXMLValue] {
        throw Self.unsupported(.foreach, at: array.location)
    }

    static func unsupported(_ feature: SCXMLFeature, at location: SourcePosition) -> SCXMLEvaluationError {
        SCXMLEvaluationError(problem(with: feature) ?? "unsupported", at: location)
    }

    // MARK: - The two forms

    /// The state of `In(id)`, `In('id')` or `In("id")`.
    static func stateTest(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("In("), trimmed.hasSuffix(")") else { return nil }
        let argument = trimmed.dropFirst(3).dropLast().trimmingCharacters(in: .whitespaces)
        if let literal = stringLiteral(argument) { return literal.isEmpty ? nil : literal }
        guard !argument.isEmpty, argument.allSatisfy({ $0.isLetter || $0.isNumber || "_-.:".contains($0) }) else {
            return nil
        }
        return argument
    }

    /// The text of `'...'` or `"..."` (with `\\`, `\'`, `\"`, `\n`, `\t` escapes).
    static func stringLiteral(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let quote = trimmed.first, quote == "'" || quote == "\"", trimmed.count >= 2, trimmed.last == quote else {
            return nil
        }
        var result = ""
        var escaped = false
        for character in trimmed.dropFirst().dropLast() {
            if escaped {
                switch character {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "\\", "'", "\"": result.append(character)
                default: return nil
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == quote {
                return nil
            } else {
                result.append(character)
            }
        }
        return escaped ? nil : result
    }
}
