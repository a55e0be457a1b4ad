extension Escaping {
    /// `text` as XML 1.0 character data or as an attribute value in double or single quotes, and
    /// so as SVG.
    ///
    /// `&`, `<`, `>`, `"` and `'` become entity references. Tab, line feed and carriage return
    /// become character references, so that attribute-value normalization and line-end
    /// normalization keep them; so do DEL, the C1 controls, the line and paragraph separators and
    /// the bidirectional controls, which XML allows but a terminal or an editor obeys, so that a
    /// document printed or opened shows what it holds. Scalars XML 1.0 cannot hold at all, not even as a reference (the
    /// other C0 controls, U+FFFE and U+FFFF), become U+FFFD: the one change this function makes to
    /// what a parser reads back.
    package static func xml(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t": result += "&#9;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            default:
                if isInvisibleInSource(scalar) && isXMLCharacter(scalar) {
                    result += "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";"
                } else if isXMLCharacter(scalar) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result.unicodeScalars.append("\u{FFFD}")
                }
            }
        }
        return result
    }

    /// Whether XML 1.0 allows `scalar` in a document (its production `Char`).
    package static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
