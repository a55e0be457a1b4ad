/// Pictures of a chart.
extension Statechart {
    /// The chart as a Mermaid state diagram (`stateDiagram-v2`), for Markdown, DocC articles and
    /// GitHub, which render it.
    ///
    /// Nesting, parallel regions (separated by `--`), initial and final states (`[*]`), history
    /// states (`H`, `H*`) and, on each arrow, its events, `[guard]` when it has a guard,
    /// `after 5s` for a timeout, `done` for a completion and `always` for an eventless transition.
    public func mermaid() -> String {
        var writer = MermaidWriter(storage)
        return writer.write()
    }

    /// The chart as a Graphviz `digraph`: render it with `dot -Tsvg`.
    ///
    /// Compound states are clusters, parallel states dashed clusters; edges carry the same labels
    /// as ``mermaid()``.
    public func dot() -> String {
        var writer = DOTWriter(storage)
        return writer.write()
    }
}

extension Statechart {
    /// The chart as SVG, laid out without Graphviz: states as nested boxes, parallel regions side
    /// by side in a dashed box, initial dots, final states with a double border, history states
    /// as circles, and the transitions as labelled arrows.
    ///
    /// Each state is a group `<g class="state" data-state="NAME">` holding its box and its
    /// children; adding the class `active` to a group fills its box, which is how the inspector
    /// of the StatechartsInspector library lights up the active states.
    public func svg() -> String {
        var writer = SVGWriter(storage)
        return writer.write()
    }
}
