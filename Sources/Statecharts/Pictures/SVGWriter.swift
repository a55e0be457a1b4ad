/// Writes a chart as SVG, laid out by itself (no Graphviz): states as nested boxes, as Harel drew
/// them, each child inside its parent; the regions of a parallel state side by side in a dashed
/// box; a black dot pointing at each initial state; final states with a double border; history
/// states as circles labelled `H` or `H*`; each transition an arrow with its label.
///
/// Every state is a `<g class="state" data-state="NAME">` holding its box, its name and its
/// children, so a page can light a state up by adding the class `active` to its group (the
/// stylesheet in the picture draws `.active` boxes filled).
struct SVGWriter<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    let picture: ChartPicture<State, Event, Context>

    /// A box: its origin relative to its parent's until ``place(_:x:y:)``, then absolute.
    struct Frame {
        var x = 0.0
        var y = 0.0
        var width = 0.0
        var height = 0.0
        var midX: Double { x + width / 2 }
        var midY: Double { y + height / 2 }

        /// Whether the two boxes share any area.
        func intersects(_ other: Frame) -> Bool {
            x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
        }
    }

    private var frames: [Frame]
    private var output = ""
    /// The boxes text takes already: the states' names, then each label placed. A label is moved
    /// off all of them (``placeLabel(_:x:y:)``).
    private var occupied: [Frame] = []
    /// How far anything drawn reaches, right and down: the picture's size.
    private var extent = Frame()

    /// Pixels, for a sans-serif font of 12 px.
    static var characterWidth: Double { 7.2 }
    static var padding: Double { 14 }
    static var header: Double { 24 }
    static var gap: Double { 36 }
    static var historySize: Double { 24 }

    init(_ storage: ChartStorage<State, Event, Context>) {
        picture = ChartPicture(storage)
        frames = Array(repeating: Frame(), count: picture.layout.stateCount)
    }

    private var layout: ChartLayout { picture.layout }

    mutating func write() -> String {
        guard layout.stateCount > 0 else { return "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n" }
        let size = measure(0)
        place(0, x: 10, y: 10)
        extent = Frame(x: 0, y: 0, width: size.width + 20, height: size.height + 20)
        for state in 0..<layout.stateCount { occupied.append(nameBox(of: state)) }
        for state in 0..<layout.stateCount where !layout.kinds[state].isHistory && layout.kinds[state] != .parallel {
            occupied += initialArrowBoxes(of: state)
        }
        writeState(0, depth: 0)
        for block in picture.edgesByBlock {
            for edge in block where edge.source != 0 { writeEdge(edge) }
        }
        for state in 0..<layout.stateCount where !layout.kinds[state].isHistory && layout.kinds[state] != .parallel {
            writeInitialArrows(of: state)
        }
        let body = output
        let width = Int((extent.width + 10).rounded(.up))
        let height = Int((extent.height + 10).rounded(.up))
        output = """
            <svg xmlns="http://www.w3.org/2000/svg" class="statechart" width="\(width)" height="\(height)" \
            viewBox="0 0 \(width) \(height)" font-family="Helvetica, Arial, sans-serif" font-size="12">
            <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" \
            orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>
            <style>
            .state > rect, .state > circle { fill: #fff; stroke: #555; stroke-width: 1.2; }
            .state.parallel > rect { stroke-dasharray: 5 3; }
            .state.active > rect, .state.active > circle { fill: #fff6dc; stroke: #c77800; stroke-width: 1.6; }
            .state.active.atomic > rect, .state.active.final > rect, .state.active.history > circle \
            { fill: #ffd36b; stroke: #a35f00; stroke-width: 2.6; }
            .state.active > rect.inner { fill: none; }
            .transition path { fill: none; stroke: #555; stroke-width: 1; }
            .transition text { font-size: 10px; fill: #333; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
            .transition.taken path { stroke: #d9480f; stroke-width: 2.6; }
            .transition.taken text { fill: #d9480f; }
            .initial { fill: #222; }
            </style>

            """
        output += body + "</svg>\n"
        return output
    }

    // MARK: - Layout

    /// The size of `state`'s box, with its children's origins set relative to it.
    private mutating func measure(_ state: Int) -> Frame {
        let name = picture.analysis.name(of: state)
        let titleWidth = Double(name.count) * Self.characterWidth + 2 * Self.padding
        let children = picture.children(of: state)
        if layout.kinds[state].isHistory {
            frames[state].width = Self.historySize
            frames[state].height = Self.historySize
            return frames[state]
        }
        if children.isEmpty {
            frames[state].width = max(70, titleWidth)
            frames[state].height = 34
            return frames[state]
        }
        let sizes = children.map { measure($0) }
        // A parallel state's regions stand in one row; a compound state's children in rows of
        // about the square root of their count.
        let perRow =
            layout.kinds[state] == .parallel
            ? children.count : max(1, Int(Double(children.count).squareRoot().rounded(.up)))
        let gap = layout.kinds[state] == .parallel ? Self.padding : Self.gap
        var y = Self.header + Self.padding
        var widest = 0.0
        var index = 0
        while index < children.count {
            let row = index..<min(index + perRow, children.count)
            var x = Self.padding + 10
            var tallest = 0.0
            for position in row {
                frames[children[position]].x = x
                frames[children[position]].y = y
                x += sizes[position].width + gap
                tallest = max(tallest, sizes[position].height)
            }
            widest = max(widest, x - gap + Self.padding)
            y += tallest + gap
            index = row.upperBound
        }
        frames[state].width = max(widest, titleWidth)
        frames[state].height = y - gap + Self.padding
        return frames[state]
    }

    /// Makes the origins absolute.
    private mutating func place(_ state: Int, x: Double, y: Double) {
        frames[state].x = x
        frames[state].y = y
        for child in picture.children(of: state) {
            place(child, x: x + frames[child].x, y: y + frames[child].y)
        }
    }

    // MARK: - Drawing

    private mutating func writeState(_ state: Int, depth: Int) {
        let frame = frames[state]
        let pad = String(repeating: "  ", count: depth)
        let name = picture.analysis.name(of: state)
        let kind = layout.kinds[state]
        var classes = ["state"]
        switch kind {
        case .parallel: classes.append("parallel")
        case .final: classes.append("final")
        case .shallowHistory, .deepHistory: classes.append("history")
        case .compound: classes.append("compound")
        default: classes.append(state == 0 ? "chart" : "atomic")
        }
        let attribute = state == 0 ? "data-chart" : "data-state"
        output += pad + "<g class=\"\(classes.joined(separator: " "))\" \(attribute)=\"\(Escaping.xml(name))\">\n"
        if kind.isHistory {
            output +=
                pad
                + "  <circle cx=\"\(Self.number(frame.midX))\" cy=\"\(Self.number(frame.midY))\" r=\"\(Self.number(frame.width / 2))\"/>\n"
            output +=
                pad
                + "  <text x=\"\(Self.number(frame.midX))\" y=\"\(Self.number(frame.midY + 4))\" text-anchor=\"middle\">\(kind == .deepHistory ? "H*" : "H")</text>\n"
        } else {
            output += pad + "  " + rectangle(frame, radius: 8) + "\n"
            if kind == .final {
                let inner = Frame(x: frame.x + 3, y: frame.y + 3, width: frame.width - 6, height: frame.height - 6)
                output += pad + "  " + rectangle(inner, radius: 6, class: "inner") + "\n"
            }
            let isLeaf = picture.children(of: state).isEmpty
            let textY = isLeaf ? frame.midY + 4 : frame.y + 16
            let textX = isLeaf ? frame.midX : frame.x + Self.padding
            output +=
                pad
                + "  <text x=\"\(Self.number(textX))\" y=\"\(Self.number(textY))\"\(isLeaf ? " text-anchor=\"middle\"" : "") font-weight=\"\(isLeaf ? "normal" : "bold")\">\(Escaping.xml(name, in: .text))</text>\n"
        }
        for child in picture.children(of: state) { writeState(child, depth: depth + 1) }
        output += pad + "</g>\n"
    }

    private func rectangle(_ frame: Frame, radius: Double, class className: String? = nil) -> String {
        let classAttribute = className.map { " class=\"\($0)\"" } ?? ""
        return
            "<rect\(classAttribute) x=\"\(Self.number(frame.x))\" y=\"\(Self.number(frame.y))\" width=\"\(Self.number(frame.width))\" height=\"\(Self.number(frame.height))\" rx=\"\(Self.number(radius))\"/>"
    }

    /// The initial states of `state` that get a dot and an arrow.
    private func initialArrowTargets(of state: Int) -> [Int] {
        let targets = state == 0 || layout.kinds[state] == .compound ? picture.initialTargets(of: state) : []
        return targets.filter { $0 < frames.count }
    }

    /// Where the dot of an initial arrow to `frame` is.
    private static func initialDot(of frame: Frame) -> (x: Double, y: Double) {
        (frame.x - 16, frame.y + min(17, frame.height / 2))
    }

    /// The boxes the initial dots and arrows of `state` take, which labels keep off.
    private func initialArrowBoxes(of state: Int) -> [Frame] {
        initialArrowTargets(of: state).map { target in
            let dot = Self.initialDot(of: frames[target])
            return Frame(x: dot.x - 4, y: dot.y - 4, width: 20, height: 8)
        }
    }

    /// A dot left of each initial state (and of a history's default), with an arrow to it.
    private mutating func writeInitialArrows(of state: Int) {
        for target in initialArrowTargets(of: state) {
            let frame = frames[target]
            let (dotX, dotY) = Self.initialDot(of: frame)
            output +=
                "<circle class=\"initial\" cx=\"\(Self.number(dotX))\" cy=\"\(Self.number(dotY))\" r=\"3.5\"/>"
                + "<path class=\"initial-arrow\" d=\"M\(Self.number(dotX + 3.5)),\(Self.number(dotY)) L\(Self.number(frame.x)),\(Self.number(dotY))\" stroke=\"#222\" marker-end=\"url(#arrow)\"/>\n"
        }
    }

    private mutating func writeEdge(_ edge: ChartPicture<State, Event, Context>.Edge) {
        let source = frames[edge.source]
        let target = frames[edge.target]
        let path: String
        let labelX: Double
        let labelY: Double
        if edge.source == edge.target {
            // A loop over the box's top right corner.
            let x = source.x + source.width - 18
            let y = source.y
            path =
                "M\(Self.number(x)),\(Self.number(y)) C\(Self.number(x - 4)),\(Self.number(y - 26)) \(Self.number(x + 30)),\(Self.number(y - 22)) \(Self.number(x + 18)),\(Self.number(y + 6))"
            labelX = x + 12
            labelY = y - 20
        } else if layout.isDescendant(edge.source, of: edge.target) || layout.isDescendant(edge.target, of: edge.source)
        {
            // One box inside the other: from the inner box up to the outer box's title bar, or down.
            let sourceInside = layout.isDescendant(edge.source, of: edge.target)
            let inner = sourceInside ? source : target
            let outer = sourceInside ? target : source
            let x = inner.x + inner.width * 0.7
            let top = outer.y + Self.header - 4
            let (start, end) = sourceInside ? (inner.y, top) : (top, inner.y)
            path = "M\(Self.number(x)),\(Self.number(start)) L\(Self.number(x)),\(Self.number(end))"
            labelX = x + 4
            labelY = (start + end) / 2
        } else {
            let (startX, startY) = Self.border(of: source, toward: target.midX, target.midY)
            let (endX, endY) = Self.border(of: target, toward: source.midX, source.midY)
            // A slight bend, so that arrows both ways between two states do not overlap.
            let middleX = (startX + endX) / 2 - (endY - startY) * 0.12
            let middleY = (startY + endY) / 2 + (endX - startX) * 0.12
            path =
                "M\(Self.number(startX)),\(Self.number(startY)) Q\(Self.number(middleX)),\(Self.number(middleY)) \(Self.number(endX)),\(Self.number(endY))"
            labelX = (startX + 2 * middleX + endX) / 4
            labelY = (startY + 2 * middleY + endY) / 4 - 3
        }
        output +=
            "<g class=\"transition\" data-source=\"\(Escaping.xml(picture.analysis.name(of: edge.source)))\" data-target=\"\(Escaping.xml(picture.analysis.name(of: edge.target)))\"><path d=\"\(path)\" marker-end=\"url(#arrow)\"/>"
        if !edge.label.isEmpty {
            let (x, y) = placeLabel(edge.label, x: labelX, y: labelY)
            output +=
                "<text x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" text-anchor=\"middle\">\(Escaping.xml(edge.label, in: .text))</text>"
        }
        output += "</g>\n"
    }

    // MARK: - Text that does not overlap

    /// The box a state's name takes: centred in a leaf's box, at the top left of a parent's (bold);
    /// a history state's `H` or `H*`, in its circle.
    func nameBox(of state: Int) -> Frame {
        let frame = frames[state]
        let kind = layout.kinds[state]
        let name = kind.isHistory ? (kind == .deepHistory ? "H*" : "H") : picture.analysis.name(of: state)
        let isLeaf = picture.children(of: state).isEmpty
        let width = Self.textWidth(name, size: 12, bold: !isLeaf)
        let x = isLeaf ? frame.midX - width / 2 : frame.x + Self.padding
        let baseline = isLeaf ? frame.midY + 4 : frame.y + 16
        return Frame(x: x, y: baseline - 12, width: width, height: 15)
    }

    /// Where to write a transition's label, centred at `x` with its baseline at `y`: there, or, when
    /// that box overlaps a state's name or a label placed before, the nearest place above or below
    /// it (then beside it) that overlaps nothing; the box is taken from then on.
    mutating func placeLabel(_ label: String, x: Double, y: Double) -> (Double, Double) {
        let width = Self.textWidth(label, size: 10, bold: false) + 4
        func box(_ x: Double, _ y: Double) -> Frame { Frame(x: x - width / 2, y: y - 10, width: width, height: 13) }
        var candidates: [(Double, Double)] = [(x, y)]
        for step in 1...8 {
            let dy = Double(step) * 13
            candidates += [(x, y - dy), (x, y + dy)]
        }
        for step in 1...3 {
            let dx = Double(step) * (width / 2 + 6)
            candidates += [(x + dx, y), (x - dx, y)]
        }
        let free = candidates.first { candidate in
            let frame = box(candidate.0, candidate.1)
            return frame.x >= 0 && frame.y >= 0 && !occupied.contains { $0.intersects(frame) }
        }
        let chosen = free ?? (x, y)
        let frame = box(chosen.0, chosen.1)
        occupied.append(frame)
        extent.width = max(extent.width, frame.x + frame.width)
        extent.height = max(extent.height, frame.y + frame.height)
        return chosen
    }

    /// A generous estimate of how wide `text` is in Helvetica or Arial at `size` pixels: narrow
    /// letters, wide letters and capitals, and the rest, each by its class, so that boxes from it
    /// hold the text as a browser draws it.
    static func textWidth(_ text: String, size: Double, bold: Bool) -> Double {
        var ems = 0.0
        for scalar in text.unicodeScalars {
            switch scalar {
            case "i", "j", "l", "I", ".", ",", ":", ";", "!", "|", "'", " ": ems += 0.3
            case "f", "t", "r", "(", ")", "[", "]", "-", "/": ems += 0.4
            case "m", "w", "M", "W": ems += 0.92
            case "A"..."Z", "_", "@", "%", "&": ems += 0.75
            default: ems += scalar.value > 0x2E7F ? 1.0 : 0.6
            }
        }
        return ems * size * (bold ? 1.1 : 1.0)
    }

    /// Where the line from the middle of `frame` toward a point leaves the box.
    static func border(of frame: Frame, toward x: Double, _ y: Double) -> (Double, Double) {
        let dx = x - frame.midX
        let dy = y - frame.midY
        guard dx != 0 || dy != 0 else { return (frame.midX, frame.midY) }
        let scaleX = dx == 0 ? Double.infinity : (frame.width / 2) / abs(dx)
        let scaleY = dy == 0 ? Double.infinity : (frame.height / 2) / abs(dy)
        let scale = min(scaleX, scaleY)
        return (frame.midX + dx * scale, frame.midY + dy * scale)
    }

    /// A coordinate with at most one decimal.
    static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }

}
