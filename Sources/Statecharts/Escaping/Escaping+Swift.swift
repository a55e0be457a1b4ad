extension Escaping {
    /// `text` as a Swift string literal, the quotes included.
    ///
    /// `\`, `"`, and every control scalar (C0, DEL, C1), line and paragraph separator and
    /// bidirectional control are escapes (`\n`, `\u{202E}`): the literal is one line whatever the
    /// text, reads the same in an editor as it compiles, and its value is `text`.
    package static func swiftLiteral(_ text: String) -> String {
        var result = "\""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default:
                if isInvisibleInSource(scalar) {
                    result += braced(scalar)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// `text` for the inside of a Swift `//` comment: one line whatever it holds.
    ///
    /// Control scalars (line feed and carriage return, which end a comment, among them), line and
    /// paragraph separators and bidirectional controls are written as `\u{HEX}`, and so is a
    /// backslash that could be read as the start of one; `/*` and `*/` are split, so that no
    /// editor or later edit reads a block comment into it.
    package static func swiftComment(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if scalar == "\\" || isInvisibleInSource(scalar) || scalar == "\t" {
                result += braced(scalar)
                previous = nil
                continue
            }
            if (previous == "/" && scalar == "*") || (previous == "*" && scalar == "/") { result += " " }
            result.unicodeScalars.append(scalar)
            previous = scalar
        }
        return result
    }

    /// Controls (C0, DEL, C1), the line and paragraph separators, the bidirectional controls and
    /// the byte order mark (U+FEFF, which some readers drop): what changes how text reads, or
    /// where a line ends, without showing itself.
    package static func isInvisibleInSource(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
            || scalar.value == 0x2029 || scalar.value == 0xFEFF || isBidirectionalControl(scalar)
    }
}
