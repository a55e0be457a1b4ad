/// For each state a machine can rest in, the events it handles and the events it ignores: the
/// completeness table of a chart.
///
/// An event is handled in a state when the state or one of its ancestors has a transition on it,
/// guarded or not; an ignored event is dropped there, or rejected with
/// ``MachineError/unhandledEvent(_:configuration:)`` under ``UnhandledEventPolicy/reject``. In a
/// parallel state, an event one region ignores may be handled by another: read the rows of the
/// active states together.
///
/// ```swift
/// print(chart.completenessTable())
/// // state      play  pause  stop
/// // stopped    yes   -      -
/// // playing    -     yes    yes
/// ```
public struct CompletenessTable<State: Hashable>: CustomStringConvertible {
    /// One state's row.
    public struct Row: Hashable {
        /// The state.
        public var state: State
        /// Its name, as pictures and documents write it.
        public var name: String
        /// The events it (or an ancestor) handles, in the order of ``CompletenessTable/events``.
        public var handled: [String]
        /// The events nothing handles while it is active, in the same order.
        public var unhandled: [String]
    }

    /// Every event name the chart knows (see ``Statechart/eventNames``).
    public var events: [String]
    /// A row for each atomic state that can be entered and is not final, in document order.
    public var rows: [Row]

    /// The rows of states that ignore at least one event.
    public var incompleteRows: [Row] { rows.filter { !$0.unhandled.isEmpty } }

    /// The table as text: a row per state, a column per event, `yes` where the event is handled.
    public var description: String {
        let header = ["state"] + events
        let body = rows.map { row in [row.name] + events.map { row.handled.contains($0) ? "yes" : "-" } }
        let widths = header.indices.map { column in ([header] + body).map { $0[column].count }.max() ?? 0 }
        return ([header] + body).map { cells in
            zip(cells, widths).map { cell, width in cell + String(repeating: " ", count: width - cell.count) }
                .joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }
}

extension Statechart {
    /// The completeness table: for each atomic state that can be entered (final states aside), the
    /// events of ``eventNames`` it handles and those it ignores.
    public func completenessTable() -> CompletenessTable<State> {
        let analysis = ChartAnalysis(storage)
        var rows: [CompletenessTable<State>.Row] = []
        for index in 1..<max(storage.layout.stateCount, 1)
        where storage.layout.kinds[index] == .atomic && analysis.reachable[index] {
            guard let state = storage.states[index] else { continue }
            var handled: [String] = []
            var unhandled: [String] = []
            for name in analysis.eventNames {
                if analysis.handles(index, name: name) { handled.append(name) } else { unhandled.append(name) }
            }
            rows.append(.init(state: state, name: analysis.name(of: index), handled: handled, unhandled: unhandled))
        }
        return CompletenessTable(events: analysis.eventNames, rows: rows)
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}

extension CompletenessTable: Sendable where State: Sendable {}

extension CompletenessTable.Row: Sendable where State: Sendable {}
