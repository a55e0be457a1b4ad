import Statecharts

/// Makes the SCXML document of a chart built in Swift, from its structure.
struct ChartDocumentBuilder<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let chart: Statechart<State, Event, Context>
    /// Each state's identifier: its description, made unique.
    let ids: [State: String]
    let location = SourcePosition(file: "", line: 1, column: 1)

    init(chart: Statechart<State, Event, Context>) {
        self.chart = chart
        var ids: [State: String] = [:]
        var used: Set<String> = []
        for state in chart.states {
            var id = Self.identifier("\(state)")
            if used.contains(id) {
                var suffix = 2
                while used.contains("\(id)_\(suffix)") { suffix += 1 }
                id = "\(id)_\(suffix)"
            }
            used.insert(id)
            ids[state] = id
        }
        self.ids = ids
    }

    /// A name usable as an XML identifier: spaces and other separators become underscores.
    static func identifier(_ text: String) -> String {
        let cleaned = String(text.map { $0.isLetter || $0.isNumber || "_-.".contains($0) ? $0 : "_" })
        guard let first = cleaned.first else { return "_" }
        return first.isLetter || first == "_" ? cleaned : "_" + cleaned
    }

    func id(_ state: State) -> String { ids[state] ?? "\(state)" }

    func reference(_ location: SourcePosition?, _ fallback: String) -> String {
        "swift('\(location.map { "\($0)" } ?? fallback)')"
    }

    func document() -> SCXMLDocument {
        let top = chart.children(of: nil)
        let initial = chart.initialStates(of: nil)
        // References to Swift code are ECMAScript calls; a chart without closures needs no data model.
        let usesCode =
            chart.allTransitions.contains { $0.hasGuard || $0.hasAction }
            || chart.states.contains { state in
                let actions = chart.actions(of: state)
                return actions.entry + actions.exit > 0 || actions.hasDoneData || chart.hasInitialAction(state)
            }
        var document = SCXMLDocument(
            name: chart.name, initial: initial == Array(top.prefix(1)) ? [] : initial.map(id),
            dataModel: usesCode ? "ecmascript" : "null", location: location)
        document.states = top.map(node)
        document.transitions = chart.transitions(of: nil).map { transition($0, timeoutNames: [:]) }
        return document
    }

    func node(_ state: State) -> SCXMLNode {
        let kind: SCXMLNode.Kind
        switch chart.kind(of: state) ?? .state {
        case .state: kind = .state
        case .parallel: kind = .parallel
        case .final: kind = .final
        case .history: kind = .history(chart.historyType(of: state) ?? .shallow)
        }
        var node = SCXMLNode(kind: kind, id: id(state), location: location)
        if case .history = kind {
            if let fallback = chart.historyDefault(of: state) {
                var actions: [SCXMLAction] = []
                if fallback.hasAction {
                    actions.append(script(reference(fallback.location, "history default of \(id(state))")))
                }
                node.transitions = [
                    SCXMLTransition(targets: fallback.targets.map(id), actions: actions, location: location)
                ]
            }
            return node
        }
        let children = chart.children(of: state)
        if chart.hasChildStates(state), chart.kind(of: state) == .state {
            let initial = chart.initialStates(of: state)
            if chart.hasInitialAction(state) {
                node.initialTransition = SCXMLTransition(
                    targets: initial.map(id), actions: [script(reference(nil, "initial action of \(id(state))"))],
                    location: location)
            } else if initial != Array(children.filter { chart.kind(of: $0) != .history }.prefix(1)) {
                node.initial = initial.map(id)
            }
        }
        let actions = chart.actions(of: state)
        var entry = (0..<actions.entry).map { index in
            SCXMLBlock(
                actions: [script(reference(nil, "entry action \(index + 1) of \(id(state))"))], location: location)
        }
        var exit = (0..<actions.exit).map { index in
            SCXMLBlock(
                actions: [script(reference(nil, "exit action \(index + 1) of \(id(state))"))], location: location)
        }
        // Timeouts: a delayed send on entry, its cancel on exit, a transition on the event.
        var timeoutNames: [Int: String] = [:]
        let transitions = chart.transitions(of: state)
        for (index, transition) in transitions.enumerated() {
            guard case .after(let delay) = transition.trigger else { continue }
            let name =
                "after.\(SCXMLTime.text(delay)).\(id(state))"
                + (timeoutNames.isEmpty ? "" : ".\(timeoutNames.count + 1)")
            timeoutNames[index] = name
            entry.append(
                SCXMLBlock(
                    actions: [SCXMLAction(.send(SCXMLSend(event: name, id: name, delay: delay)), location: location)],
                    location: location))
            exit.append(
                SCXMLBlock(
                    actions: [SCXMLAction(.cancel(sendID: name, sendIDExpression: nil), location: location)],
                    location: location))
        }
        node.onEntry = entry
        node.onExit = exit
        node.transitions = transitions.enumerated().map { index, info in
            transition(info, timeoutNames: timeoutNames, index: index)
        }
        node.children = children.map(self.node)
        if actions.hasDoneData {
            node.doneData = SCXMLDoneData(
                content: SCXMLContent(
                    expression: SCXMLExpression(reference(nil, "done data of \(id(state))"), location: location),
                    location: location),
                location: location)
        }
        return node
    }

    func transition(
        _ info: TransitionInfo<State, Event>, timeoutNames: [Int: String], index: Int = -1
    ) -> SCXMLTransition {
        let events: [String]
        switch info.trigger {
        case .events: events = info.eventNames
        case .eventless: events = []
        case .after: events = [timeoutNames[index] ?? "after"]
        case .done: events = ["done.state.\(info.source.map(id) ?? "")"]
        }
        return SCXMLTransition(
            events: events,
            condition: info.hasGuard ? SCXMLExpression(reference(info.location, "guard"), location: location) : nil,
            targets: info.targets.map(id), type: info.type,
            actions: info.hasAction ? [script(reference(info.location, "action"))] : [], location: location)
    }

    func script(_ text: String) -> SCXMLAction {
        SCXMLAction(.script(SCXMLScript(text: text, location: location)), location: location)
    }
}
