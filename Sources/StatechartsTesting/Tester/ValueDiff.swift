/// The difference of two values as ``MachineTester`` reports it: both are written as nested Swift
/// literals (through `Mirror`), and the lines that differ are marked `−` (the first value) and `+`
/// (the second), with the parts that are the same around them and unchanged nested values folded
/// to `[…]` or `Name(…)`.
///
/// ```
///   TestedState(
///     configuration: […],
///     context: Track(
///       duration: 180.0,
/// −     position: 2.0
/// +     position: 1.0
///     )
///   )
/// ```
///
/// It needs no package of its own, so that a client of StatechartsTesting builds nothing else.
enum ValueDiff {
    /// The lines of the difference of `old` and `new`, or nil when both are written the same.
    static func lines(_ old: Any, _ new: Any) -> String? {
        let before = ValueNode(old)
        let after = ValueNode(new)
        guard before != after else { return nil }
        var lines: [String] = []
        difference(label: "", before, after, depth: 0, last: true, into: &lines)
        return lines.joined(separator: "\n")
    }

    private static func difference(
        label: String, _ before: ValueNode, _ after: ValueNode, depth: Int, last: Bool, into lines: inout [String]
    ) {
        let indent = String(repeating: "  ", count: depth)
        let comma = last ? "" : ","
        if before == after {
            lines.append("  " + indent + label + after.folded + comma)
            return
        }
        if case .composite(let open, let close, let oldChildren, let ordered) = before,
            case .composite(open, close, let newChildren, ordered) = after,
            !before.isSingleLine || !after.isSingleLine
        {
            lines.append("  " + indent + label + open)
            let pairs = ordered ? alignByValue(oldChildren, newChildren) : alignByLabel(oldChildren, newChildren)
            for (index, pair) in pairs.enumerated() {
                let isLast = index == pairs.count - 1
                switch pair {
                case .both(let old, let new):
                    difference(label: new.prefix, old.node, new.node, depth: depth + 1, last: isLast, into: &lines)
                case .removed(let old):
                    write(old.node, label: old.prefix, marker: "−", depth: depth + 1, last: isLast, into: &lines)
                case .added(let new):
                    write(new.node, label: new.prefix, marker: "+", depth: depth + 1, last: isLast, into: &lines)
                }
            }
            lines.append("  " + indent + close + comma)
            return
        }
        write(before, label: label, marker: "−", depth: depth, last: last, into: &lines)
        write(after, label: label, marker: "+", depth: depth, last: last, into: &lines)
    }

    /// Writes `node` in full, every line marked.
    private static func write(
        _ node: ValueNode, label: String, marker: String, depth: Int, last: Bool, into lines: inout [String]
    ) {
        let written = node.written
        for (index, line) in written.enumerated() {
            let text = (index == 0 ? label : "") + line + (index == written.count - 1 && !last ? "," : "")
            lines.append(marker + " " + String(repeating: "  ", count: depth) + text)
        }
    }

    /// The largest table of common runs ``alignByValue(_:_:)`` builds: 1,000 elements on each side.
    static let lcsCellLimit = 1_000_000

    private enum Pair {
        case both(ValueNode.Child, ValueNode.Child)
        case removed(ValueNode.Child)
        case added(ValueNode.Child)
    }

    /// Fields of the same type: matched by label, in the order of the second value.
    private static func alignByLabel(_ old: [ValueNode.Child], _ new: [ValueNode.Child]) -> [Pair] {
        var pairs: [Pair] = []
        var unmatched = old
        for child in new {
            if let index = unmatched.firstIndex(where: { $0.label == child.label }) {
                pairs.append(.both(unmatched.remove(at: index), child))
            } else {
                pairs.append(.added(child))
            }
        }
        return unmatched.map { .removed($0) } + pairs
    }

    /// Elements of collections: the longest run the two have in common stays, the rest is removed
    /// or added, and elements in the same place that differ are compared inside.
    private static func alignByValue(_ old: [ValueNode.Child], _ new: [ValueNode.Child]) -> [Pair] {
        let rows = old.count
        let columns = new.count
        // The table of common runs takes rows × columns cells: past this, elements are compared
        // place by place, as long collections of a test are most often changed in place.
        guard rows * columns <= lcsCellLimit else {
            return (0..<max(rows, columns)).map { index in
                if index < rows, index < columns { return .both(old[index], new[index]) }
                return index < rows ? .removed(old[index]) : .added(new[index])
            }
        }
        var common = [[Int]](repeating: [Int](repeating: 0, count: columns + 1), count: rows + 1)
        for row in stride(from: rows - 1, through: 0, by: -1) {
            for column in stride(from: columns - 1, through: 0, by: -1) {
                common[row][column] =
                    old[row].node == new[column].node
                    ? common[row + 1][column + 1] + 1 : max(common[row + 1][column], common[row][column + 1])
            }
        }
        var pairs: [Pair] = []
        var row = 0
        var column = 0
        while row < rows || column < columns {
            if row < rows, column < columns, old[row].node == new[column].node {
                pairs.append(.both(old[row], new[column]))
                row += 1
                column += 1
            } else if row < rows, column < columns, common[row + 1][column] == common[row][column + 1],
                common[row + 1][column + 1] == common[row][column]
            {
                // Neither side's element is in the common run: the same place, changed.
                pairs.append(.both(old[row], new[column]))
                row += 1
                column += 1
            } else if column < columns, row == rows || common[row][column + 1] >= common[row + 1][column] {
                pairs.append(.added(new[column]))
                column += 1
            } else {
                pairs.append(.removed(old[row]))
                row += 1
            }
        }
        return pairs
    }
}

/// A value written as a Swift literal, as a tree: what ``ValueDiff`` compares.
indirect enum ValueNode: Equatable {
    /// A value written on one line: a number, a string, a case without payload.
    case leaf(String)
    /// A value with parts: `open`, the children, `close`. `ordered` children are matched by value
    /// (elements of a collection), the others by label (fields).
    case composite(open: String, close: String, children: [Child], ordered: Bool)

    /// A part of a composite value: its label, if any, and the value.
    struct Child: Equatable {
        var label: String?
        var node: ValueNode

        /// What is written before the value: `label: `, or nothing.
        var prefix: String { label.map { "\($0): " } ?? "" }
    }

    /// The value read through `Mirror`, within ``Reader``'s bounds.
    init(_ value: Any) {
        var reader = Reader()
        self = reader.read(value, depth: 0)
    }

    /// Reads values into nodes, bounded so that no value a test holds makes the diff hang: an
    /// object met again inside itself is written `Name(↩︎)`, and past ``depthLimit`` levels or
    /// ``nodeLimit`` nodes a value is written by its description.
    struct Reader {
        /// How deep a value is followed: enough for any state a test asserts.
        static let depthLimit = 24
        /// How many nodes one value may take.
        static let nodeLimit = 100_000

        private var nodes = 0
        /// The objects being read, from the root down to the current value.
        private var objects: Set<ObjectIdentifier> = []

        mutating func read(_ value: Any, depth: Int) -> ValueNode {
            nodes += 1
            if depth >= Self.depthLimit || nodes > Self.nodeLimit { return .leaf(String(describing: value)) }
            switch value {
            case let string as String: return .leaf(string.debugDescription)
            case let character as Character: return .leaf(String(character).debugDescription)
            default: break
            }
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .optional:
                guard let wrapped = mirror.children.first else { return .leaf("nil") }
                return read(wrapped.value, depth: depth)
            case .collection:
                return .composite(
                    open: "[", close: "]", children: children(of: mirror, depth: depth) { index, _ in "[\(index)]" },
                    ordered: true)
            case .set:
                let elements = children(of: mirror, depth: depth) { _, _ in nil }
                    .map { ($0, $0.node.written.joined(separator: "\n")) }
                    .sorted { $0.1 < $1.1 }.map(\.0)
                return .composite(open: "Set([", close: "])", children: elements, ordered: true)
            case .dictionary:
                var entries: [Child] = []
                for entry in mirror.children {
                    let pair = Array(Mirror(reflecting: entry.value).children)
                    guard pair.count == 2 else {
                        entries.append(Child(label: nil, node: read(entry.value, depth: depth + 1)))
                        continue
                    }
                    let key = read(pair[0].value, depth: depth + 1).written.joined(separator: " ")
                    entries.append(Child(label: key, node: read(pair[1].value, depth: depth + 1)))
                }
                return .composite(
                    open: "[", close: "]", children: entries.sorted { ($0.label ?? "") < ($1.label ?? "") },
                    ordered: true)
            case .tuple:
                return .composite(
                    open: "(", close: ")",
                    children: children(of: mirror, depth: depth) { _, label in Self.fieldLabel(label) },
                    ordered: false)
            case .enum:
                let name = ValueNode.caseName(of: value, mirror: mirror)
                guard let payload = mirror.children.first else { return .leaf("." + name) }
                let inner = Mirror(reflecting: payload.value)
                let fields =
                    inner.displayStyle == .tuple
                    ? children(of: inner, depth: depth) { _, label in Self.fieldLabel(label) }
                    : [Child(label: nil, node: read(payload.value, depth: depth + 1))]
                return .composite(open: ".\(name)(", close: ")", children: fields, ordered: false)
            case .struct, .class:
                let type = ValueNode.typeName(of: value)
                if mirror.children.isEmpty || ValueNode.isStandardLibraryValue(value) {
                    return mirror.children.isEmpty && !(value is CustomStringConvertible)
                        ? .leaf("\(type)()") : .leaf(String(describing: value))
                }
                // An object is followed once on the way down: a cycle is written as a mark.
                let object = mirror.displayStyle == .class ? ObjectIdentifier(value as AnyObject) : nil
                if let object, !objects.insert(object).inserted { return .leaf("\(type)(↩︎)") }
                defer { if let object { objects.remove(object) } }
                return .composite(
                    open: "\(type)(", close: ")", children: children(of: mirror, depth: depth) { $1 }, ordered: false)
            default:
                return .leaf(String(describing: value))
            }
        }

        private mutating func children(
            of mirror: Mirror, depth: Int, labelled label: (Int, String?) -> String?
        ) -> [Child] {
            var children: [Child] = []
            for (index, child) in mirror.children.enumerated() {
                children.append(Child(label: label(index, child.label), node: read(child.value, depth: depth + 1)))
            }
            return children
        }

        private static func fieldLabel(_ label: String?) -> String? {
            guard let label, !label.hasPrefix(".") else { return nil }
            return label
        }
    }

    /// Whether the value fits on one line: a leaf, an empty collection, or a value with at most one
    /// field that does.
    /// Elements of a collection are written one per line, so that a changed one is a line of its own.
    var isSingleLine: Bool {
        switch self {
        case .leaf: true
        case .composite(_, _, let children, let ordered):
            ordered ? children.isEmpty : children.count <= 1 && children.allSatisfy(\.node.isSingleLine)
        }
    }

    /// The value written in full, one string per line, each nested level two spaces further in.
    var written: [String] {
        switch self {
        case .leaf(let text): return [text]
        case .composite(let open, let close, let children, _):
            if children.isEmpty { return [open + close] }
            if isSingleLine, let only = children.first {
                return [open + only.prefix + only.node.written.joined() + close]
            }
            var lines = [open]
            for (index, child) in children.enumerated() {
                let inner = child.node.written
                for (line, text) in inner.enumerated() {
                    let comma = line == inner.count - 1 && index < children.count - 1 ? "," : ""
                    lines.append("  " + (line == 0 ? child.prefix : "") + text + comma)
                }
            }
            lines.append(close)
            return lines
        }
    }

    /// The value on one line when it fits there, and otherwise folded: `[…]`, `Name(…)`.
    var folded: String {
        switch self {
        case .leaf(let text): text
        case .composite(let open, let close, _, _):
            isSingleLine ? written.joined() : open + "…" + close
        }
    }

    /// The type's name without its module and generic arguments.
    fileprivate static func typeName(of value: Any) -> String {
        let name = String(describing: type(of: value))
        return name.firstIndex(of: "<").map { String(name[..<$0]) } ?? name
    }

    /// The name of an enum's case: the payload's label, or the case as Swift describes it.
    fileprivate static func caseName(of value: Any, mirror: Mirror) -> String {
        if let label = mirror.children.first?.label { return label }
        let described = String(describing: value)
        return described.split(separator: "(").first.map(String.init) ?? described
    }

    /// Values of the standard library and Foundation whose fields are private details (`Duration`,
    /// `Date`, `URL`): written by their description.
    fileprivate static func isStandardLibraryValue(_ value: Any) -> Bool {
        guard value is CustomStringConvertible else { return false }
        let name = String(reflecting: type(of: value))
        // On Linux Foundation's values live in FoundationEssentials (`FoundationEssentials.Date`).
        return name.hasPrefix("Swift.") || name.hasPrefix("Foundation")
    }
}
