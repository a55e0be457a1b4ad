/// Writes a chart as a Graphviz `digraph`.
///
/// Compound states are rounded clusters and parallel states dashed ones, whose regions are
/// clusters inside; a small black dot points at each initial state; final states are double
/// circles and history states circles labelled `H` or `H*`. An arrow to or from a compound state
/// ends at its cluster's border (`compound=true` with `lhead`/`ltail`).
struct DOTWriter<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let picture: ChartPicture<State, Event, Context>
    private var lines: [String] = []

    init(_ storage: ChartStorage<State, Event, Context>) {
        picture = ChartPicture(storage)
    }

    mutating func write() -> String {
        lines = [
            "digraph \(Escaping.dot(picture.analysis.name(of: 0))) {",
            "    compound=true;",
            "    rankdir=LR;",
            "    fontname=\"Helvetica\";",
            "    node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11];",
            "    edge [fontname=\"Helvetica\", fontsize=9];",
        ]
        writeContents(of: 0, indent: 1)
        for block in picture.edgesByBlock {
            for edge in block where edge.source != 0 { writeEdge(edge) }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private var layout: ChartLayout { picture.layout }

    private func node(_ state: Int) -> String { Escaping.dot(picture.analysis.name(of: state)) }

    private func cluster(_ state: Int) -> String { Escaping.dot("cluster_" + picture.analysis.name(of: state)) }

    private func isCluster(_ state: Int) -> Bool {
        layout.kinds[state] == .compound || layout.kinds[state] == .parallel
    }

    private mutating func writeContents(of state: Int, indent: Int) {
        let pad = String(repeating: "    ", count: indent)
        let initial = picture.initialTargets(of: state)
        if !initial.isEmpty && layout.kinds[state] != .parallel {
            let start = Escaping.dot("__initial_" + (state == 0 ? "" : picture.analysis.name(of: state)))
            lines.append(pad + "\(start) [shape=point, width=0.12, label=\"\"];")
            for target in initial { lines.append(pad + "\(start) -> \(node(target))\(head(of: target, from: state));") }
        }
        for child in picture.children(of: state) {
            let name = Escaping.dot(picture.analysis.name(of: child))
            switch layout.kinds[child] {
            case .compound, .parallel:
                let dashed = layout.kinds[child] == .parallel
                lines.append(pad + "subgraph \(cluster(child)) {")
                lines.append(pad + "    label=\(name);")
                lines.append(pad + "    style=\(dashed ? "\"rounded,dashed\"" : "rounded");")
                lines.append(pad + "    \(node(child)) [shape=point, style=invis, width=0, height=0, label=\"\"];")
                writeContents(of: child, indent: indent + 1)
                lines.append(pad + "}")
            case .final:
                lines.append(pad + "\(node(child)) [shape=doublecircle, label=\(name), width=0.3];")
            case .shallowHistory, .deepHistory:
                let label = layout.kinds[child] == .deepHistory ? "H*" : "H"
                lines.append(pad + "\(node(child)) [shape=circle, label=\"\(label)\", width=0.3];")
                for target in picture.historyDefaults(of: child) {
                    lines.append(pad + "\(node(child)) -> \(node(target))\(head(of: target, from: child));")
                }
            default:
                lines.append(pad + "\(node(child));")
            }
        }
    }

    /// `[lhead=...]` when the arrow ends at a cluster it does not start inside.
    private func head(of target: Int, from source: Int) -> String {
        isCluster(target) && !layout.isDescendant(source, of: target) ? " [lhead=\(cluster(target))]" : ""
    }

    private mutating func writeEdge(_ edge: ChartPicture<State, Event, Context>.Edge) {
        var attributes: [String] = []
        if !edge.label.isEmpty { attributes.append("label=\(Escaping.dot(edge.label))") }
        if isCluster(edge.source) && !layout.isDescendant(edge.target, of: edge.source) {
            attributes.append("ltail=\(cluster(edge.source))")
        }
        if isCluster(edge.target) && !layout.isDescendant(edge.source, of: edge.target) {
            attributes.append("lhead=\(cluster(edge.target))")
        }
        let suffix = attributes.isEmpty ? "" : " [" + attributes.joined(separator: ", ") + "]"
        lines.append("    \(node(edge.source)) -> \(node(edge.target))\(suffix);")
    }

}
