extension Escaping {
    /// `text` made printable on a terminal: what a document influences (names, log messages, event
    /// data, errors) cannot move the cursor, change colours, set the window's title, or reorder
    /// what is shown.
    ///
    /// Every C0 control but the tab (and the line feed, when `keepingLineBreaks`), DEL, every C1
    /// control (U+0080–U+009F, which terminals read as ESC sequences too), the line and paragraph
    /// separators and the bidirectional controls are written as `\u{HEX}`.
    ///
    /// - Parameters:
    ///   - text: What a document or a user gave.
    ///   - keepingLineBreaks: Whether a line feed stays one (a multi-line log message); a carriage
    ///     return never does, since it lets later text overwrite the line.
    package static func terminal(_ text: String, keepingLineBreaks: Bool = false) -> String {
        // Most text is printable already: no copy then.
        guard text.unicodeScalars.contains(where: { needsEscape($0, keepingLineBreaks: keepingLineBreaks) }) else {
            return text
        }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar, keepingLineBreaks: keepingLineBreaks) {
                result += braced(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar, keepingLineBreaks: Bool) -> Bool {
        if scalar == "\t" || (keepingLineBreaks && scalar == "\n") { return false }
        return isInvisibleInSource(scalar)
    }
}
