extension Escaping {
    /// `text` as a Graphviz DOT double-quoted string, the quotes included, for an identifier or a
    /// label.
    ///
    /// `"` and `\` are escaped with a backslash (so that Graphviz's own escapes in labels, `\N`,
    /// `\G`, `\l`, cannot be formed), a line feed or a carriage return becomes `\n` (a line break
    /// in a label), and the other control scalars (NUL, which Graphviz's C strings cannot carry,
    /// ESC and the C1 controls, which a terminal obeys when the DOT is printed), the line and
    /// paragraph separators and the bidirectional controls become U+FFFD: DOT has no escape for a
    /// scalar, and a picture cannot show them. A label read back and unescaped as Graphviz does is
    /// `text` with those changes.
    package static func dot(_ text: String) -> String {
        var result = "\""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n", "\r": result += "\\n"
            default:
                if scalar != "\t" && isInvisibleInSource(scalar) {
                    result.unicodeScalars.append("\u{FFFD}")
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
