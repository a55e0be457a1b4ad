extension Escaping {
    /// Where XML text goes: an attribute value in double quotes, or character data.
    package enum XMLContext: Sendable {
        /// An attribute value, written between double quotes.
        case attribute
        /// Character data: an element's text.
        case text
    }

    /// `text` as XML 1.0 (and so SVG) character data or as an attribute value in double quotes.
    ///
    /// `&`, `<` and `>` become entity references everywhere, and `"` in an attribute. Line feeds
    /// and tabs stay as they are in text and become character references in an attribute, whose
    /// value normalization would turn them into spaces; a carriage return, which line-end
    /// normalization drops, is always a reference. So are DEL, the C1 controls, the line and
    /// paragraph separators, the bidirectional controls and U+FEFF, which XML allows but a
    /// terminal or an editor obeys or hides: a document printed or opened shows what it holds.
    /// Scalars XML 1.0 cannot hold at all, not even as a reference (the other C0 controls, U+FFFE
    /// and U+FFFF), become U+FFFD: the one change this function makes to what a parser reads back.
    package static func xml(_ text: String, in context: XMLContext = .attribute) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where context == .attribute: result += "&quot;"
            case "\t" where context == .attribute: result += "&#9;"
            case "\n" where context == .attribute: result += "&#10;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            default:
                if !isXMLCharacter(scalar) {
                    result.unicodeScalars.append("\u{FFFD}")
                } else if isInvisibleInSource(scalar) {
                    result += "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";"
                } else {
                    result.unicodeScalars.append(scalar)
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
