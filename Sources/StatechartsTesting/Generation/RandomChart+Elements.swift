import Statecharts

extension RandomChart {
    /// The chart's elements, to build it in Swift (`Statechart(name:elements:)`) rather than read
    /// it as SCXML: the same states, transitions, raised and delayed events. Half the states'
    /// delayed events and their cancels are written as data
    /// (`ChartElement.onEntry(send:after:id:)`, `ChartElement.onExit(cancel:)`), the others as
    /// closures.
    ///
    /// - Parameters:
    ///   - makeEvent: The event of a name.
    ///   - condition: The guard of every guarded transition; `nil` to leave guarded transitions
    ///     without one (their `In(...)` has no Swift form).
    ///   - action: Runs on every transition, before the event it raises, if any.
    public func elements<Event: StatechartEvent & Sendable, Context>(
        event makeEvent: @escaping @Sendable (String) -> Event,
        guard condition: StatechartGuard<String, Event, Context>? = nil,
        action: StatechartAction<String, Event, Context>? = nil
    ) -> [ChartElement<String, Event, Context>] where Event.Kind == String {
        func element(_ node: Node) -> ChartElement<String, Event, Context> {
            switch node.kind {
            case .final:
                return .state(node.id, kind: .final)
            case .shallowHistory, .deepHistory:
                return .history(
                    node.id, type: node.kind == .deepHistory ? .deep : .shallow,
                    defaultTargets: node.transitions.first?.targets ?? [])
            case .state, .parallel:
                var elements = node.children.map(element)
                if let raised = node.raisesOnEntry { elements.append(.onEntry { $0.raise(makeEvent(raised)) }) }
                if let delayed = node.delayedOnEntry {
                    let id = "timer_\(node.id)"
                    // Every other state writes the send and its cancel as data, which the quick
                    // step does itself; the others as closures, which it leaves to the general path.
                    if node.id.utf8.last.map({ $0 % 2 == 0 }) ?? false {
                        elements.append(
                            .onEntry(send: makeEvent(delayed.event), after: .milliseconds(delayed.milliseconds), id: id)
                        )
                        elements.append(.onExit(cancel: id))
                    } else {
                        elements.append(
                            .onEntry {
                                $0.send(makeEvent(delayed.event), after: .milliseconds(delayed.milliseconds), id: id)
                            })
                        elements.append(.onExit { $0.cancel(id: id) })
                    }
                }
                for transition in node.transitions {
                    let raised = transition.raises
                    elements.append(
                        .transition(
                            transition.event.map { .events([.descriptor(EventDescriptor($0))]) } ?? .eventless,
                            targets: transition.targets, type: transition.isInternal ? .internal : .external,
                            guard: transition.condition == nil ? nil : condition,
                            action: { scope in
                                try action?(&scope)
                                if let raised { scope.raise(makeEvent(raised)) }
                            }))
                }
                return .state(
                    node.id, kind: node.kind == .parallel ? .parallel : .state, initial: node.initial,
                    elements: elements)
            }
        }
        return states.map(element)
    }

    /// The chart with faults that building it must report, as `tape` decides: targets that are no
    /// state of the chart, initial states that are not children, history defaults outside their
    /// parent. Checks of chart validation build such charts and expect problems, never a trap.
    public func withFaults(tape: [Int]) -> RandomChart {
        var reader = TapeReader(values: tape)
        let ids = stateIDs
        func damage(_ nodes: inout [Node]) {
            for index in nodes.indices {
                damage(&nodes[index].children)
                for transition in nodes[index].transitions.indices where reader.next(8) == 1 {
                    let isHistory = nodes[index].kind == .shallowHistory || nodes[index].kind == .deepHistory
                    nodes[index].transitions[transition].targets = [
                        isHistory && !ids.isEmpty ? ids[reader.next(ids.count)] : "missing"
                    ]
                }
                if nodes[index].kind == .state, !nodes[index].children.isEmpty, reader.next(10) == 1, !ids.isEmpty {
                    nodes[index].initial = [ids[reader.next(ids.count)]]
                }
            }
        }
        var copy = self
        damage(&copy.states)
        return copy
    }
}
