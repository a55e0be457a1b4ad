/// Swift code for a value built of initialiser calls and arrays, laid out as swift-format lays it
/// out: on one line when it fits, else one argument or element per line.
indirect enum SwiftLiteral {
    /// Code as it is written: `"text"`, `.state`, `nil`.
    case code(String)
    /// `name(label: value, ...)`; a `nil` label for an unlabelled argument.
    case call(String, [(label: String?, value: SwiftLiteral)])
    /// `[element, ...]`.
    case array([SwiftLiteral])

    /// The code on one line.
    var flat: String {
        switch self {
        case .code(let code):
            return code
        case .call(let name, let arguments):
            return name + "("
                + arguments.map { ($0.label.map { "\($0): " } ?? "") + $0.value.flat }.joined(separator: ", ")
                + ")"
        case .array(let elements):
            return "[" + elements.map(\.flat).joined(separator: ", ") + "]"
        }
    }

    /// The lines of the code at `indent`, after `prefix` and before `suffix` on its first and last
    /// lines.
    func lines(prefix: String = "", suffix: String = "", indent: Int) -> [String] {
        let pad = SwiftChartWriter.pad(indent)
        let oneLine = pad + prefix + flat + suffix
        guard oneLine.count > SwiftChartWriter.lineLength else { return [oneLine] }
        switch self {
        case .code:
            return [oneLine]
        case .call(let name, let arguments):
            guard !arguments.isEmpty else { return [oneLine] }
            var result = [pad + prefix + name + "("]
            for argument in arguments.dropLast() {
                result += argument.value.lines(
                    prefix: argument.label.map { "\($0): " } ?? "", suffix: ",", indent: indent + 1)
            }
            if let last = arguments.last {
                var lastLines = last.value.lines(prefix: last.label.map { "\($0): " } ?? "", indent: indent + 1)
                // A string too long for any line ends its line, and the parenthesis takes the next.
                if let end = lastLines.last, (end + ")" + suffix).count <= SwiftChartWriter.lineLength {
                    lastLines[lastLines.count - 1] = end + ")" + suffix
                } else {
                    lastLines.append(pad + ")" + suffix)
                }
                result += lastLines
            }
            return result
        case .array(let elements):
            guard !elements.isEmpty else { return [oneLine] }
            var result = [pad + prefix + "["]
            // swift-format ends a multi-line array of several elements with a comma, of one without.
            let separator = elements.count > 1 ? "," : ""
            for element in elements { result += element.lines(suffix: separator, indent: indent + 1) }
            result.append(pad + "]" + suffix)
            return result
        }
    }
}
