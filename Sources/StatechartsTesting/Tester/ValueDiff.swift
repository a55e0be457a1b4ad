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
        let written = node.written(depth: depth)
        for (index, line) in written.enumerated() {
            let text = (index == 0 ? label : "") + line + (index == written.count - 1 && !last ? "," : "")
            lines.append(marker + " " + String(repeating: "  ", count: depth) + text)
        }
    }

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

    /// How deep a value is followed before it is written by its description: enough for any
    /// state a test asserts, and a bound for values that refer to themselves.
    static let depthLimit = 24

    init(_ value: Any, depth: Int = 0) {
        let mirror = Mirror(reflecting: value)
        if depth >= Self.depthLimit {
            self = .leaf(String(describing: value))
            return
        }
        func children(labelled label: (Int, String?) -> String?) -> [Child] {
            mirror.children.enumerated().map { index, child in
                Child(label: label(index, child.label), node: ValueNode(child.value, depth: depth + 1))
            }
        }
        switch value {
        case let string as String:
            self = .leaf(string.debugDescription)
            return
        case let character as Character:
            self = .leaf(String(character).debugDescription)
            return
        default: break
        }
        switch mirror.displayStyle {
        case .optional:
            if let wrapped = mirror.children.first {
                self = ValueNode(wrapped.value, depth: depth)
            } else {
                self = .leaf("nil")
            }
        case .collection:
            self = .composite(open: "[", close: "]", children: children { index, _ in "[\(index)]" }, ordered: true)
        case .set:
            let elements = children { _, _ in nil }.sorted {
                $0.node.written(depth: 0).joined(separator: "\n") < $1.node.written(depth: 0).joined(separator: "\n")
            }
            self = .composite(open: "Set([", close: "])", children: elements, ordered: true)
        case .dictionary:
            let entries = mirror.children.map { entry -> Child in
                let pair = Array(Mirror(reflecting: entry.value).children)
                guard pair.count == 2 else { return Child(label: nil, node: ValueNode(entry.value, depth: depth + 1)) }
                let key = ValueNode(pair[0].value, depth: depth + 1).written(depth: 0).joined(separator: " ")
                return Child(label: key, node: ValueNode(pair[1].value, depth: depth + 1))
            }
            self = .composite(
                open: "[", close: "]", children: entries.sorted { ($0.label ?? "") < ($1.label ?? "") }, ordered: true)
        case .tuple:
            self = .composite(
                open: "(", close: ")", children: children { _, label in Self.fieldLabel(label) }, ordered: false)
        case .enum:
            let name = Self.caseName(of: value, mirror: mirror)
            guard let payload = mirror.children.first else {
                self = .leaf("." + name)
                return
            }
            let inner = Mirror(reflecting: payload.value)
            let fields =
                inner.displayStyle == .tuple
                ? inner.children.map {
                    Child(label: Self.fieldLabel($0.label), node: ValueNode($0.value, depth: depth + 1))
                }
                : [Child(label: nil, node: ValueNode(payload.value, depth: depth + 1))]
            self = .composite(open: ".\(name)(", close: ")", children: fields, ordered: false)
        case .struct, .class:
            if mirror.children.isEmpty || Self.isStandardLibraryValue(value) {
                self =
                    mirror.children.isEmpty && !(value is CustomStringConvertible)
                    ? .leaf("\(Self.typeName(of: value))()") : .leaf(String(describing: value))
                return
            }
            self = .composite(
                open: "\(Self.typeName(of: value))(", close: ")", children: children { _, label in label },
                ordered: false)
        default:
            self = .leaf(String(describing: value))
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

    /// The value written in full, one string per line, indented from `depth`'s column.
    func written(depth: Int) -> [String] {
        switch self {
        case .leaf(let text): return [text]
        case .composite(let open, let close, let children, _):
            if children.isEmpty { return [open + close] }
            if isSingleLine, let only = children.first {
                return [open + only.prefix + only.node.written(depth: 0).joined() + close]
            }
            var lines = [open]
            for (index, child) in children.enumerated() {
                let inner = child.node.written(depth: depth + 1)
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
            isSingleLine ? written(depth: 0).joined() : open + "…" + close
        }
    }

    private static func fieldLabel(_ label: String?) -> String? {
        guard let label, !label.hasPrefix(".") else { return nil }
        return label
    }

    /// The type's name without its module and generic arguments.
    private static func typeName(of value: Any) -> String {
        let name = String(describing: type(of: value))
        return name.firstIndex(of: "<").map { String(name[..<$0]) } ?? name
    }

    /// The name of an enum's case: the payload's label, or the case as Swift describes it.
    private static func caseName(of value: Any, mirror: Mirror) -> String {
        if let label = mirror.children.first?.label { return label }
        let described = String(describing: value)
        return described.split(separator: "(").first.map(String.init) ?? described
    }

    /// Values of the standard library and Foundation whose fields are private details (`Duration`,
    /// `Date`, `URL`): written by their description.
    private static func isStandardLibraryValue(_ value: Any) -> Bool {
        guard value is CustomStringConvertible else { return false }
        let name = String(reflecting: type(of: value))
        return name.hasPrefix("Swift.") || name.hasPrefix("Foundation.")
    }
}
