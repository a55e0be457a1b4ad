/// Writes a chart as a Mermaid state diagram (`stateDiagram-v2`).
///
/// Compound states are composite states; the regions of a parallel state are separated by `--`;
/// `[*] -->` marks initial states and `--> [*]` final ones; history states are states labelled
/// `H` or `H*` with an arrow to their default. Each arrow is written inside the innermost
/// composite state that contains both its ends, as Mermaid requires.
struct MermaidWriter<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let picture: ChartPicture<State, Event, Context>
    let identifiers: [String]
    private var lines: [String] = []

    init(_ storage: ChartStorage<State, Event, Context>) {
        picture = ChartPicture(storage)
        identifiers = picture.identifiers(reserved: ["state", "note", "direction", "end", "class", "classDef"])
    }

    mutating func write() -> String {
        lines = ["stateDiagram-v2"]
        writeBlock(of: 0, indent: 1)
        let skipped = picture.edgesByBlock[0].filter { $0.source == 0 }
        for edge in skipped {
            lines.append("    %% a transition of the chart itself, active in every state: \(edge.label)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private var layout: ChartLayout { picture.layout }

    private func id(_ state: Int) -> String { identifiers[state] }

    private mutating func writeBlock(of state: Int, indent: Int) {
        let pad = String(repeating: "    ", count: indent)
        let children = picture.children(of: state)
        if layout.kinds[state] == .parallel {
            for (position, child) in children.enumerated() {
                if position > 0 { lines.append(pad + "--") }
                writeDeclaration(of: child, indent: indent)
            }
        } else {
            for child in children { writeDeclaration(of: child, indent: indent) }
            for target in picture.initialTargets(of: state) { lines.append(pad + "[*] --> \(id(target))") }
        }
        for child in children {
            switch layout.kinds[child] {
            case .final: lines.append(pad + "\(id(child)) --> [*]")
            case .shallowHistory, .deepHistory:
                for target in picture.historyDefaults(of: child) {
                    lines.append(pad + "\(id(child)) --> \(id(target))")
                }
            default: break
            }
        }
        for edge in picture.edgesByBlock[state] where edge.source != 0 {
            lines.append(pad + "\(id(edge.source)) --> \(id(edge.target))" + Self.label(edge.label))
        }
    }

    private mutating func writeDeclaration(of state: Int, indent: Int) {
        let pad = String(repeating: "    ", count: indent)
        let name = picture.analysis.name(of: state)
        switch layout.kinds[state] {
        case .shallowHistory:
            lines.append(pad + "state \"H\" as \(id(state))")
        case .deepHistory:
            lines.append(pad + "state \"H*\" as \(id(state))")
        case .compound, .parallel:
            if name != id(state) { lines.append(pad + "state \"\(Self.escaped(name))\" as \(id(state))") }
            lines.append(pad + "state \(id(state)) {")
            writeBlock(of: state, indent: indent + 1)
            lines.append(pad + "}")
        default:
            lines.append(name == id(state) ? pad + id(state) : pad + "state \"\(Self.escaped(name))\" as \(id(state))")
        }
    }

    static func label(_ text: String) -> String {
        text.isEmpty ? "" : " : " + escaped(text)
    }

    /// Mermaid has no escape for `"` and reads `:` and `;` as syntax in labels: replace them.
    /// Works on Unicode scalars, so that a quote followed by a combining mark is replaced too.
    static func escaped(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result.append("'")
            case ":", ";": result.append(".")
            case "\n", "\r": result.append(" ")
            default: result.append(Escaping.isInvisibleInSource(scalar) ? "\u{FFFD}" : scalar)
            }
        }
        return String(result)
    }
}
