extension Escaping {
    /// `text` as a JSON string, the quotes included.
    ///
    /// `"` and `\` are escaped, and so is every control scalar, C1 and DEL included (`\u0085`), the
    /// line and paragraph separators (U+2028, U+2029, which older JavaScript reads as line ends),
    /// the bidirectional controls and the byte order mark: JSON printed on a terminal cannot drive
    /// it or reorder it, and the value read back is `text`.
    package static func json(_ text: String) -> String {
        var result = "\""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if isInvisibleInSource(scalar) {
                    result += jsonEscape(scalar)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

extension Escaping {
    /// JSON text from an encoder, with the scalars ``json(_:)`` escapes but encoders leave raw
    /// (DEL, C1, U+2028, U+2029, the bidirectional controls, U+FEFF) escaped: outside its strings
    /// JSON text is ASCII, so each such scalar is inside a string, where its escape reads back as
    /// itself.
    package static func jsonText(_ encoded: String) -> String {
        guard encoded.unicodeScalars.contains(where: isRawInEncoderOutput) else { return encoded }
        var result = ""
        result.unicodeScalars.reserveCapacity(encoded.unicodeScalars.count)
        for scalar in encoded.unicodeScalars {
            if isRawInEncoderOutput(scalar) {
                result += jsonEscape(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isRawInEncoderOutput(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x7F && isInvisibleInSource(scalar)
    }
}

extension Escaping {
    /// `\uXXXX` for a scalar of the Basic Multilingual Plane.
    static func jsonEscape(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
