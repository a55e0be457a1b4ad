/// Text made safe for one output language: one function per language, each over Unicode scalars.
///
/// Every function works on `String.unicodeScalars`, never on `Character`s. A quote followed by a
/// combining mark (U+0301) is one `Character`, which does not equal `"`, but two scalars, and the
/// parser of every language here reads the quote: comparing characters leaves it unescaped.
///
/// | Output | Function | Checked against |
/// |---|---|---|
/// | XML and SVG, text and attribute values | ``xml(_:)`` | `XMLParser` |
/// | Graphviz DOT, quoted strings | ``dot(_:)`` | `dot` itself |
/// | Swift string literals | ``swiftLiteral(_:)`` | `swiftc` |
/// | Swift line comments | ``swiftComment(_:)`` | `swiftc` |
/// | JSON strings | ``json(_:)`` | `JSONSerialization` |
/// | A terminal | ``terminal(_:keepingLineBreaks:)`` | no control or reordering scalar left |
/// | GitHub Actions workflow commands | ``workflowCommand(_:as:)`` | the Actions runner's own parser |
///
/// `EscapingPropertyTests` checks each one on 100,000 random strings, combining marks, controls,
/// bidirectional overrides and astral scalars among them.
package enum Escaping {
    /// Whether `scalar` reorders the text around it when shown: the bidirectional embeddings,
    /// overrides and isolates (U+202A–U+202E, U+2066–U+2069), which can make text on a screen read
    /// differently from what it is ("Trojan Source").
    package static func isBidirectionalControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// `\u{HEX}`, the way Swift writes a scalar and the way ``terminal(_:keepingLineBreaks:)`` and
    /// ``swiftComment(_:)`` show one they cannot print.
    static func braced(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }
}
