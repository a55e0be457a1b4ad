import Statecharts

/// Writes the Swift of one document for ``SwiftGenerator``: names first, then the source.
struct SwiftChartWriter {
    /// What the file holds besides the enums.
    enum Form: Equatable {
        /// A compiled chart: `chart() -> Statechart<State, Event, Void>`.
        case compiled
        /// The document as Swift values, and `chart(dataModels:) -> SCXMLChart`.
        case document(dataModel: String)
    }

    let document: SCXMLDocument
    let form: Form
    let typeName: String
    let access: SwiftGenerator.Access
    let fileName: String

    /// Case names of the states, by id, and the ids in document order.
    var stateNames: [String: String] = [:]
    var stateOrder: [String] = []
    /// Case names of the events, by name, and the names in the order the document first uses them.
    var eventNames: [String: String] = [:]
    var eventOrder: [String] = []
    /// The names of ``eventOrder``, to look one up in constant time.
    var eventSet: Set<String> = []
    /// Every proper dot-separated prefix of an event name of ``eventOrder`` (`a` and `a.b` of
    /// `a.b.c`): a descriptor that is one matches more than one event.
    var eventPrefixes: Set<String> = []
    var diagnostics: [SCXMLDiagnostic] = []
    /// Whether an action throws `ExecutionError`, which is then declared.
    var throwsExecutionError = false
    /// The types of Swift work the document invokes (`<invoke type>` other than SCXML's), in
    /// document order, with the property of the generated `Invokers` each becomes.
    var invokerTypes: [(type: String, property: String)] = []
    /// What the design names and leaves to the app's code (a compiled chart's `Implementation`).
    var implementation: [NamedItem] = []
    var lines: [String] = []

    init(document: SCXMLDocument, form: Form, typeName: String, access: SwiftGenerator.Access, fileName: String) {
        self.document = document
        self.form = form
        self.typeName = typeName
        self.access = access
        self.fileName = fileName
    }

    mutating func write(warnings: [SCXMLDiagnostic]) throws(SCXMLError) -> GeneratedSwift {
        diagnostics = warnings
        nameStates()
        nameEvents()
        if form == .compiled { nameImplementation() }
        let body = form == .compiled ? chartBody() : documentDeclaration()
        if form != .compiled { nameInvokerTypes() }
        guard !diagnostics.contains(where: { $0.severity == .error }) else {
            throw SCXMLError(diagnostics: diagnostics.sorted(by: SCXMLChartBuilder.documentOrder))
        }
        writeFile(body: body)
        return GeneratedSwift(
            typeName: typeName, source: lines.joined(separator: "\n") + "\n",
            warnings: diagnostics.sorted(by: SCXMLChartBuilder.documentOrder))
    }

    // MARK: - Names

    mutating func nameStates() {
        var positions: [String: (id: String, location: SourcePosition)] = [:]
        func visit(_ node: SCXMLNode) {
            stateOrder.append(node.id)
            if let name = caseName(node.id, of: "state", at: node.location, reserved: Self.reservedStateNames) {
                if let earlier = positions[name] {
                    report(
                        "the states '\(earlier.id)' (\(earlier.location)) and '\(node.id)' would both be the case State.\(name); rename one",
                        at: node.location)
                } else {
                    positions[name] = (node.id, node.location)
                    stateNames[node.id] = name
                }
            }
            node.children.forEach(visit)
        }
        document.states.forEach(visit)
    }

    mutating func nameEvents() {
        var positions: [String: (event: String, location: SourcePosition)] = [:]
        func add(_ event: String, at location: SourcePosition) {
            guard eventNames[event] == nil, eventSet.insert(event).inserted else { return }
            eventOrder.append(event)
            var prefix = Substring(event)
            while let dot = prefix.lastIndex(of: ".") {
                prefix = prefix[..<dot]
                guard eventPrefixes.insert(String(prefix)).inserted else { break }
            }
            guard let name = caseName(event, of: "event", at: location, reserved: Self.reservedEventNames) else {
                return
            }
            if let earlier = positions[name] {
                report(
                    "the events '\(earlier.event)' (\(earlier.location)) and '\(event)' would both be the case Event.\(name); rename one",
                    at: location)
            } else {
                positions[name] = (event, location)
                eventNames[event] = name
            }
        }
        func visit(_ actions: [SCXMLAction]) {
            for action in actions {
                switch action.kind {
                case .raise(let event): add(event, at: action.location)
                case .send(let send):
                    if let event = send.event ?? send.eventExpression.flatMap({ NullDataModel.stringLiteral($0.text) })
                    {
                        add(event, at: action.location)
                    }
                case .if(let branches): branches.forEach { visit($0.actions) }
                case .foreach(_, _, _, let body): visit(body)
                case .cancel, .log, .assign, .script, .foreign: break
                }
            }
        }
        func visit(_ transition: SCXMLTransition) {
            for descriptor in EventDescriptor.list(transition.events)
            where !descriptor.isWildcard && !descriptor.pattern.isEmpty && !isPlatform(descriptor.pattern) {
                add(descriptor.pattern, at: transition.location)
            }
            visit(transition.actions)
        }
        func visit(_ node: SCXMLNode) {
            node.onEntry.forEach { visit($0.actions) }
            node.onExit.forEach { visit($0.actions) }
            if let initial = node.initialTransition { visit(initial) }
            node.children.forEach(visit)
            node.transitions.forEach(visit)
        }
        document.states.forEach(visit)
        document.transitions.forEach(visit)
    }

    /// Members a state or event case cannot be named, since the enum has them already.
    static let reservedStateNames: Set<String> = ["allCases", "rawValue", "hashValue", "init", "Type", "Protocol"]
    static let reservedEventNames = reservedStateNames.union(["kind", "name", "allKinds"])

    mutating func caseName(
        _ text: String, of what: String, at location: SourcePosition, reserved: Set<String>
    ) -> String? {
        guard let name = SwiftNaming.caseName(text) else {
            report("the \(what) '\(text)' has no letter or digit to name a Swift case after; rename it", at: location)
            return nil
        }
        guard !reserved.contains(name) else {
            report(
                "the \(what) '\(text)' would be the case \(name), which the generated enum has already as a member; rename it",
                at: location)
            return nil
        }
        return name
    }

    /// Whether a descriptor matches an event the machine raises itself (`done.state.*`,
    /// `done.invoke.*`, `error.*`), which the `Event` enum does not hold.
    func isPlatform(_ pattern: String) -> Bool {
        let platform = ["error.execution", "error.communication", "error.platform", "done.state", "done.invoke"]
        return pattern == "done" || pattern.hasPrefix("done.state.") || pattern.hasPrefix("done.invoke.")
            || platform.contains { EventDescriptor(pattern).matches($0) }
    }

    mutating func report(_ message: String, at location: SourcePosition) {
        diagnostics.append(SCXMLDiagnostic(.error, message, at: location, kind: .unsupported))
    }

    mutating func warn(_ message: String, at location: SourcePosition) {
        diagnostics.append(SCXMLDiagnostic(.warning, message, at: location, kind: .unsupported))
    }

    /// `.caseName` of a state.
    func state(_ id: String) -> String { "." + SwiftNaming.escaped(stateNames[id] ?? id) }

    /// `.caseName` of an event.
    func event(_ name: String) -> String { "." + SwiftNaming.escaped(eventNames[name] ?? name) }

    // MARK: - The file

    mutating func writeFile(body: [String]) {
        let modifier = access == .public ? "public " : ""
        lines += [
            "// Generated by `statechart generate` from \(Escaping.swiftComment(fileName)): edit the document, not this file.",
            "",
            "import Statecharts",
        ]
        if case .document = form { lines.append("import StatechartsSCXML") }
        lines += [
            "",
            document.name.map {
                "/// The statechart \(Escaping.swiftComment(Escaping.swiftLiteral($0))), generated from \(Escaping.swiftComment(fileName))."
            } ?? "/// The statechart of \(Escaping.swiftComment(fileName)).",
            "\(modifier)nonisolated enum \(typeName) {",
            "    /// The states of the document: a case per state id, whose raw value is the id.",
            "    \(modifier)nonisolated enum State: String, Hashable, Sendable, CaseIterable {",
        ]
        for id in stateOrder { lines.append(caseLine(stateNames[id], raw: id)) }
        lines.append("    }")
        lines.append("")
        lines.append("    /// The events the document handles or sends: a case per name, whose raw value is the name.")
        if eventOrder.isEmpty {
            // An enum without cases cannot have a raw type.
            lines.append("    \(modifier)nonisolated enum Event: StatechartEvent, Hashable, Sendable, CaseIterable {}")
        } else {
            lines.append(
                "    \(modifier)nonisolated enum Event: String, StatechartEvent, Hashable, Sendable, CaseIterable {")
            for name in eventOrder { lines.append(caseLine(eventNames[name], raw: name)) }
            lines.append("    }")
        }
        if throwsExecutionError {
            lines += [
                "",
                "    /// What an element of the document throws when it cannot run; the machine raises `error.execution`.",
                "    \(modifier)nonisolated struct ExecutionError: Error, CustomStringConvertible {",
                "        /// What went wrong.",
                "        \(modifier)let description: String",
                "",
                "        init(_ description: String) { self.description = description }",
                "    }",
            ]
        }
        guard case .document(let dataModel) = form else {
            if implementation.isEmpty {
                lines += [
                    "",
                    "    /// The chart of the document, on the engine's compiled tables.",
                    "    \(modifier)nonisolated static func chart() throws(ChartValidationError) -> Statechart<State, Event, Void> {",
                ]
            } else {
                lines += implementationProtocol(modifier: modifier)
                lines += [
                    "",
                    "    /// The chart of the document, on the engine's compiled tables: what the design names, it asks",
                    "    /// `implementation` for.",
                    "    \(modifier)nonisolated static func chart<Code: Implementation>(",
                    "        implementation: Code",
                    "    ) throws(ChartValidationError) -> Statechart<State, Event, Code.Context> {",
                ]
            }
            lines += body
            lines += ["    }", "}"]
            return
        }
        lines += [
            "",
            "    /// The document as Swift values: its states, transitions and executable content, every expression and",
            "    /// script as written, with where it is written.",
        ]
        lines += body.map {
            $0.replacingOccurrences(of: "nonisolated static var", with: "\(modifier)nonisolated static var")
        }
        lines += invokersDeclaration(modifier: modifier)
        lines += [
            "",
            "    /// The chart of the document, run by an `SCXMLSession`: its expressions and scripts on the first of",
            "    /// `dataModels` that implements \(Escaping.swiftLiteral(dataModel)).",
            "    \(modifier)nonisolated static func chart(dataModels: [any SCXMLDataModel.Type]) throws(SCXMLError) -> SCXMLChart {",
            "        try document.makeChart(dataModels: dataModels)",
            "    }",
            "",
            "    nonisolated private static func at(_ line: Int, _ column: Int) -> SourcePosition {",
            "        SourcePosition(file: \(Escaping.swiftLiteral(fileName)), line: line, column: column)",
            "    }",
            "}",
        ]
    }

    func caseLine(_ name: String?, raw: String) -> String {
        guard let name else { return "" }
        let declared = SwiftNaming.escaped(name)
        return declared == raw ? "        case \(declared)" : "        case \(declared) = \(Escaping.swiftLiteral(raw))"
    }

    mutating func chartBody() -> [String] {
        var initial = ""
        if !document.initial.isEmpty { initial = ", initial: " + document.initial.map(state).joined(separator: ", ") }
        var body = ["        try Statechart(\(Escaping.swiftLiteral(document.name ?? "scxml"))\(initial)) {"]
        var elements: [[String]] = document.states.map { node($0, indent: 3) }
        elements += document.transitions.map { transition($0, indent: 3) }
        body += elements.flatMap { $0 }
        body.append("        }")
        return body
    }
}
