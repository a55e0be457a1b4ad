// Compiled with the trait ECMAScript only: without it, this module is empty and needs no JavaScriptCore.
#if ECMAScript
import CJavaScriptCore
import Foundation
import Statecharts
import StatechartsSCXML

/// SCXML's ECMAScript data model (SCXML 1.0, Appendix B.2), on JavaScriptCore.
///
/// Each session gets its own JavaScriptCore virtual machine. `<data>` elements are global
/// variables; `cond`, `expr` and `location` are ECMAScript; `<script>` runs at global scope; the
/// system variables `_event`, `_sessionid`, `_name` and `_ioprocessors` are read-only; `In(id)`
/// tells whether a state is active. Every bad expression, assignment or script raises
/// `error.execution`, as the specification asks.
///
/// Documents are untrusted. A script has ECMAScript's built-ins and nothing else: no file,
/// network or process access, no `eval`, no promises or asynchronous functions, no WebAssembly
/// unless `SCXMLLimits.allowsWebAssembly`. In a session, all the scripts of one cascade share
/// its `SCXMLLimits.scriptTime`; a script still running when it is spent, or one that grows the
/// heap past `SCXMLLimits.javaScriptHeap`, is stopped, and the session ends with the violation.
/// Outside a session each evaluation gets the script time alone. (On Apple platforms, scripts are
/// stopped only with the package trait JavaScriptCoreSPI: see "Running documents you did not write".)
///
/// ```swift
/// let chart = try SCXMLChart.load(contentsOf: url, dataModels: ECMAScriptDataModel.withBuiltIns)
/// var session = SCXMLSession(chart: chart, options: .init(limits: SCXMLLimits(scriptTime: .milliseconds(200))))
/// try session.start()
/// ```
///
/// The model is a reference to its virtual machine: copies of a machine share their variables.
/// To fork a session, archive it and restore the archive. An archive holds every variable as
/// JSON, and functions a script declared as their source text.
public struct ECMAScriptDataModel: SCXMLDataModel {
    /// `"ecmascript"`.
    public static var names: Set<String> { ["ecmascript"] }

    /// The built-in data models and this one: what to pass to `SCXMLChart.load(_:dataModels:)`.
    public static var withBuiltIns: [any SCXMLDataModel.Type] { SCXMLDocument.builtInDataModels + [Self.self] }

    /// The names a document cannot assign to.
    static let systemVariables: Set<String> = ["_event", "_sessionid", "_name", "_ioprocessors"]

    /// The model's one stored property, so that a session holds the model inside its existential
    /// (`any SCXMLDataModel`) without a box of its own: a model with more stored properties was
    /// boxed, and every mutating call on a session's shared copy copied the box first (about 1,800
    /// instructions and two allocations per event of the ECMAScript counter).
    let engine: JavaScriptContext

    /// The session's information, kept in its virtual machine.
    var session: SCXMLSessionInfo { engine.session }

    /// The event bound to `_event`, kept for archives.
    var lastEvent: SCXMLEvent? { engine.boundEvent }

    /// A model for a new session: a fresh virtual machine with the system variables.
    public init(session: SCXMLSessionInfo) {
        self.init(engine: JavaScriptContext(session: session))
    }

    init(engine: JavaScriptContext) {
        self.engine = engine
        installSystemVariables()
    }

    // MARK: - Checks before running

    /// Every expression is accepted when the chart is built: SCXML asks for `error.execution`
    /// when a bad one is evaluated, not for the document to be rejected.
    public static func problem(with expression: SCXMLExpression, as use: SCXMLExpressionUse) -> String? { nil }

    /// Every feature is supported.
    public static func problem(with feature: SCXMLFeature) -> String? { nil }

    /// Every inline content can be used: XML inside `<data>` or the `<content>` of a `<send>` or
    /// `<donedata>` is a DOM (SCXML B.2.2). (XML inside `<assign>` is kept as its text, which an
    /// `<invoke>`'s `<content expr>` can run as a document.)
    public static func problem(with content: SCXMLInlineContent) -> String? { nil }

    // MARK: - System variables

    private func installSystemVariables() {
        let sessionID = engine.makeValue(.string(session.id))
        engine.setGlobal("_sessionid", sessionID, readOnly: true, hidden: true)
        engine.setGlobal(
            "_name", session.name.map { engine.makeValue(.string($0)) } ?? JSValueMakeUndefined(engine.context),
            readOnly: true, hidden: true)
        let processors = engine.makeValue(
            .object(session.processorLocations.mapValues { .object(["location": .string($0)]) }))
        if let object = JSValueToObject(engine.context, processors, nil), let freeze = engine.freezeFunction() {
            _ = try? engine.call(freeze, [object], at: SourcePosition(file: "statecharts", line: 1, column: 1))
        }
        engine.setGlobal("_ioprocessors", processors, readOnly: true, hidden: true)
    }

    /// Binds `_event` to the event: an object with its fields (absent ones are `undefined`),
    /// frozen, made when a script first reads it.
    public mutating func bind(_ event: SCXMLEvent) {
        engine.bind(event)
    }

    // MARK: - Expressions

    /// The truth of `cond`, as ECMAScript's `Boolean(value)`.
    public mutating func condition(_ expression: SCXMLExpression, isActive: (String) -> Bool) throws -> Bool {
        try engine.withActiveStates(isActive) {
            JSValueToBoolean(engine.context, try engine.evaluateExpression(expression))
        }
    }

    /// The value of `expr`, as data.
    public mutating func value(_ expression: SCXMLExpression, isActive: (String) -> Bool) throws -> SCXMLValue {
        try engine.withActiveStates(isActive) {
            try engine.scxmlValue(try engine.evaluateExpression(expression), at: expression.location)
        }
    }

    // MARK: - Data

    /// Declares the variable, `undefined` until it is initialised.
    public mutating func declare(_ data: SCXMLData) throws {
        engine.setGlobal(data.id, JSValueMakeUndefined(engine.context))
    }

    /// Creates the variable with the value of its `expr`, its content or the file of its `src`.
    public mutating func initialize(_ data: SCXMLData, isActive: (String) -> Bool) throws {
        let value: JSValueRef
        if let expression = data.expression {
            value = try engine.withActiveStates(isActive) { try engine.evaluateExpression(expression) }
        } else if let content = data.content {
            value = try contentValue(content, at: data.location)
        } else if let source = data.source {
            throw SCXMLEvaluationError(
                "the file '\(source)' of <data id=\"\(data.id)\"> cannot be read", at: data.location)
        } else {
            value = JSValueMakeUndefined(engine.context)
        }
        engine.setGlobal(data.id, value)
    }

    /// Inline content as a value (SCXML B.2.2): a DOM when it is XML, JSON's value when it is
    /// JSON, otherwise the text as a string with its white space normalised.
    func contentValue(
        _ content: SCXMLInlineContent, at location: SourcePosition, markupAsText: Bool = false
    ) throws -> JSValueRef {
        if case .markup(let markup) = content {
            if markupAsText { return engine.makeValue(.string(markup)) }
            guard let dom = engine.makeDOM(markup) else {
                throw SCXMLEvaluationError("the XML content is not well-formed", at: location)
            }
            return dom
        }
        let text = content.string
        if let parsed = engine.parseJSON(text) { return parsed }
        if !markupAsText, let dom = engine.makeDOM(text) { return dom }
        let normalized = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return engine.makeValue(.string(normalized))
    }

    /// Inline content sent as event data or done data: XML as XML content (a DOM for the
    /// receiver), JSON as its value, other text as a string with its white space normalised.
    public mutating func value(of content: SCXMLInlineContent, at location: SourcePosition) throws -> SCXMLValue {
        if case .markup(let markup) = content {
            guard SCXMLMarkup.parse(markup) != nil else {
                throw SCXMLEvaluationError("the XML content is not well-formed", at: location)
            }
            return .xml(markup)
        }
        return try engine.scxmlValue(try contentValue(content, at: location), at: location)
    }

    /// Runs `<assign>`: the location must exist and must not be a system variable.
    public mutating func assign(
        to location: SCXMLExpression, expression: SCXMLExpression?, content: SCXMLInlineContent?,
        isActive: (String) -> Bool
    ) throws {
        try checkWritable(location.text, at: location.location)
        try engine.withActiveStates(isActive) {
            if let expression {
                try engine.assign(expression, to: location.text, at: location.location)
                return
            }
            let value: JSValueRef
            if let content {
                value = try contentValue(content, at: location.location, markupAsText: true)
            } else {
                value = JSValueMakeUndefined(engine.context)
            }
            try engine.assign(value, to: location.text, at: location.location)
        }
    }

    /// Stores a value: for `idlocation` and `<foreach>`, which declare a plain variable name that
    /// does not exist yet.
    public mutating func store(_ value: SCXMLValue, in location: String, at sourceLocation: SourcePosition) throws {
        try checkWritable(location, at: sourceLocation)
        let converted = engine.makeValue(value)
        if Self.isIdentifier(location), !engine.hasGlobal(location) {
            engine.setGlobal(location, converted)
            return
        }
        try engine.assign(converted, to: location, at: sourceLocation)
    }

    /// The value at a location (`namelist`, `<param location>`).
    public mutating func load(_ location: String, at sourceLocation: SourcePosition) throws -> SCXMLValue {
        let value = try engine.evaluateExpression(SCXMLExpression(location, location: sourceLocation))
        return try engine.scxmlValue(value, at: sourceLocation)
    }

    /// Runs a `<script>` at global scope: its `var` and function declarations become variables.
    public mutating func run(_ script: SCXMLScript, isActive: (String) -> Bool) throws {
        guard let text = script.text else {
            throw SCXMLEvaluationError(
                "the script '\(script.source ?? "")' cannot be read", at: script.location)
        }
        _ = try engine.withActiveStates(isActive) { try engine.evaluate(text, at: script.location) }
    }

    /// The items of an array, copied: `<foreach>` iterates over a shallow copy.
    public mutating func items(of array: SCXMLExpression, isActive: (String) -> Bool) throws -> [SCXMLValue] {
        try engine.withActiveStates(isActive) {
            let value = try engine.evaluateExpression(array)
            let context = engine.context
            guard JSValueIsArray(context, value), let object = JSValueToObject(context, value, nil) else {
                throw SCXMLEvaluationError(
                    "'\(array.text)' is not an array, so <foreach> cannot iterate over it", at: array.location)
            }
            let lengthKey = JavaScriptContext.makeString("length")
            defer { JSStringRelease(lengthKey) }
            let length = JSValueToNumber(context, JSObjectGetProperty(context, object, lengthKey, nil), nil)
            let limits = SCXMLCascade.current?.limits ?? session.limits
            guard length.isFinite, length <= Double(limits.foreachItems) else {
                let violation = limits.violation(
                    .foreachItems, element: "foreach", location: array.location, session: session.id,
                    detail: "the array '\(array.text)' has \(length.isFinite ? "\(Int64(length))" : "\(length)") items")
                throw SCXMLEvaluationError("\(violation)", at: array.location)
            }
            let count = Int(length)
            var items: [SCXMLValue] = []
            items.reserveCapacity(max(count, 0))
            for index in 0..<max(count, 0) {
                guard let item = JSObjectGetPropertyAtIndex(context, object, UInt32(index), nil) else { continue }
                items.append(try engine.scxmlValue(item, at: array.location))
            }
            return items
        }
    }

    // MARK: - Locations

    /// Throws when `location` starts with a system variable. Every system variable starts with
    /// `_`, so a location that does not (after white space) is let through without more work.
    func checkWritable(_ location: String, at position: SourcePosition) throws {
        let first = location.unicodeScalars.first { $0 != "\t" && $0.properties.generalCategory != .spaceSeparator }
        guard first == "_" else { return }
        let root = location.trimmingCharacters(in: .whitespaces).prefix {
            $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$"
        }
        if Self.systemVariables.contains(String(root)) {
            throw SCXMLEvaluationError("'\(root)' is a system variable and cannot be assigned", at: position)
        }
    }

    static let reservedWords: Set<String> = [
        "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else",
        "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof",
        "new", "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void",
        "while", "with", "yield", "let", "static", "implements", "interface", "package", "private", "protected",
        "public", "await",
    ]

    /// Whether `name` is a plain ECMAScript identifier that can be a variable.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !reservedWords.contains(name) else { return false }
        let isStart = { (scalar: Unicode.Scalar) in
            scalar.properties.isAlphabetic || scalar == "_" || scalar == "$"
        }
        return isStart(first)
            && name.unicodeScalars.dropFirst().allSatisfy { isStart($0) || $0.properties.numericType != nil }
    }
}
#endif
