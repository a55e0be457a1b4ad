import Foundation
import Statecharts
import StatechartsSCXML
import Testing

/// The shared material beside the project (`../shared`), which tests read in place.
enum SharedMaterial {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let root = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

    static var conformance: URL { root.appendingPathComponent("conformance") }
    static var scion: URL { conformance.appendingPathComponent("scion") }
    static var w3c: URL { conformance.appendingPathComponent("w3c") }

    /// Whether the conformance suites are there.
    static var isPresent: Bool { FileManager.default.fileExists(atPath: scion.path) }

    static let absent: Comment = "../shared/conformance is absent: the conformance suites are not run"

    /// Every chart of both suites.
    static var allCharts: [URL] {
        guard let enumerator = FileManager.default.enumerator(at: conformance, includingPropertiesForKeys: nil) else {
            return []
        }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "scxml" }.sorted { $0.path < $1.path }
    }
}

/// A data model for tests that accepts every expression and feature, to build the chart of any
/// document for structural comparison; it never runs one.
struct StructureOnlyDataModel: SCXMLDataModel {
    static var names: Set<String> { ["null", "ecmascript", "xpath"] }
    static func problem(with expression: SCXMLExpression, as use: SCXMLExpressionUse) -> String? { nil }
    static func problem(with feature: SCXMLFeature) -> String? { nil }
    init(session: SCXMLSessionInfo) {}
    mutating func bind(_ event: SCXMLEvent) {}
    func unavailable(_ location: SourcePosition) -> SCXMLEvaluationError {
        SCXMLEvaluationError("a structure-only model does not evaluate", at: location)
    }
    mutating func condition(_ expression: SCXMLExpression, isActive: (String) -> Bool) throws -> Bool {
        throw unavailable(expression.location)
    }
    mutating func value(_ expression: SCXMLExpression, isActive: (String) -> Bool) throws -> SCXMLValue {
        throw unavailable(expression.location)
    }
    mutating func declare(_ data: SCXMLData) throws {}
    mutating func initialize(_ data: SCXMLData, isActive: (String) -> Bool) throws { throw unavailable(data.location) }
    mutating func assign(
        to location: SCXMLExpression, expression: SCXMLExpression?, content: SCXMLInlineContent?,
        isActive: (String) -> Bool
    ) throws { throw unavailable(location.location) }
    mutating func store(_ value: SCXMLValue, in location: String, at sourceLocation: SourcePosition) throws {
        throw unavailable(sourceLocation)
    }
    mutating func load(_ location: String, at sourceLocation: SourcePosition) throws -> SCXMLValue {
        throw unavailable(sourceLocation)
    }
    mutating func run(_ script: SCXMLScript, isActive: (String) -> Bool) throws { throw unavailable(script.location) }
    mutating func items(of array: SCXMLExpression, isActive: (String) -> Bool) throws -> [SCXMLValue] {
        throw unavailable(array.location)
    }
}

/// A chart's structure as text: every state with its kind, parent and initial states, and every
/// transition with its trigger, targets, type, guard and action. Equal text, equal structure.
func structure<State, Event, Context>(of chart: Statechart<State, Event, Context>) -> String {
    var lines: [String] = []
    func describe(_ transition: TransitionInfo<State, Event>) -> String {
        let trigger: String
        switch transition.trigger {
        case .events: trigger = "on " + transition.eventNames.joined(separator: " ")
        case .eventless: trigger = "always"
        case .after(let delay): trigger = "after \(delay)"
        case .done: trigger = "on done.state.\(transition.source.map { "\($0)" } ?? "")"
        }
        return "  \(trigger) -> \(transition.targets.map { "\($0)" }) \(transition.type)"
            + (transition.hasGuard ? " guarded" : "") + (transition.hasAction ? " acting" : "")
    }
    lines.append("initial \(chart.initialStates(of: nil).map { "\($0)" })")
    for transition in chart.transitions(of: nil) { lines.append(describe(transition)) }
    for state in chart.states {
        let kind = chart.kind(of: state).map { "\($0)" } ?? "?"
        let parent = chart.parent(of: state).map { "\($0)" } ?? "-"
        var line = "\(state) \(kind) in \(parent)"
        if let history = chart.historyType(of: state) {
            line += " \(history) default \(chart.historyDefault(of: state)?.targets.map { "\($0)" } ?? [])"
        }
        if chart.hasChildStates(state) { line += " initial \(chart.initialStates(of: state).map { "\($0)" })" }
        let actions = chart.actions(of: state)
        line += " entry \(actions.entry) exit \(actions.exit)"
        lines.append(line)
        for transition in chart.transitions(of: state) { lines.append(describe(transition)) }
    }
    return lines.joined(separator: "\n")
}
