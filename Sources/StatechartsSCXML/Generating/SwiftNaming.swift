/// How the Swift generator names what a document names: cases from state ids and event names,
/// types from a document's name.
enum SwiftNaming {
    /// Words Swift reserves, which a case can still be named with backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
        "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true",
        "try", "some", "any", "consume", "borrowing", "consuming", "copy", "discard", "each", "macro", "package",
        "nonisolated", "isolated", "actor", "async",
    ]

    /// The words of `text`: its runs of letters and digits.
    static func words(_ text: String) -> [String] {
        text.split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// A lowerCamelCase name for an id or event name (`media-player` → `mediaPlayer`,
    /// `done.state.x` → `doneStateX`, `HTTP.POST` → `httpPOST`); `nil` when it has no letter or
    /// digit. A name that would start with a digit starts with an underscore.
    static func caseName(_ text: String) -> String? {
        let parts = words(text)
        guard let first = parts.first else { return nil }
        var name = first.allSatisfy { !$0.isLetter || $0.isUppercase } ? first.lowercased() : lowercasingFirst(first)
        for part in parts.dropFirst() { name += uppercasingFirst(part) }
        if let initial = name.first, initial.isNumber { name = "_" + name }
        return name
    }

    /// An UpperCamelCase name for a type (`media-player` → `MediaPlayer`); `nil` when `text` has no
    /// letter or digit. A name that would start with a digit starts with an underscore.
    static func typeName(_ text: String) -> String? {
        let parts = words(text)
        guard !parts.isEmpty else { return nil }
        var name = parts.map(uppercasingFirst).joined()
        if let initial = name.first, initial.isNumber { name = "_" + name }
        return name
    }

    /// Whether `text` is a Swift identifier as written, without backticks.
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !keywords.contains(text) && text != "_"
    }

    /// `name` as it is written in a declaration or after a dot: in backticks when Swift reserves it.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// `text` as a Swift string literal.
    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// `duration` as Swift code: `.seconds(5)`, `.milliseconds(1500)`, and so on.
    static func durationLiteral(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        if nanoseconds % 1_000_000_000 == 0 { return ".seconds(\(nanoseconds / 1_000_000_000))" }
        if nanoseconds % 1_000_000 == 0 { return ".milliseconds(\(nanoseconds / 1_000_000))" }
        if nanoseconds % 1_000 == 0 { return ".microseconds(\(nanoseconds / 1_000))" }
        return ".nanoseconds(\(nanoseconds))"
    }

    static func lowercasingFirst(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.lowercased() + word.dropFirst()
    }

    static func uppercasingFirst(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }
}
