import Statecharts

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

    /// The words of `text`: its runs of scalars that Swift takes in an identifier (letters, digits
    /// and the rest of its grammar's `identifier-character`), less the invisible ones.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isWordScalar(scalar) {
                word.append(scalar)
            } else if !word.isEmpty {
                words.append(String(word))
                word = String.UnicodeScalarView()
            }
        }
        if !word.isEmpty { words.append(String(word)) }
        return words
    }

    /// Whether a name is made of `scalar`: an identifier character of Swift's grammar that shows,
    /// other than `_` (a separator in the names documents use).
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "_" && isIdentifierCharacter(scalar) && !isInvisible(scalar)
    }

    /// Swift's `identifier-head` (The Swift Programming Language, Lexical Structure).
    static func isIdentifierHead(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0x5F: return true
        case 0xA8, 0xAA, 0xAD, 0xAF, 0xB2...0xB5, 0xB7...0xBA: return true
        case 0xBC...0xBE, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0xFF: return true
        case 0x100...0x2FF, 0x370...0x167F, 0x1681...0x180D, 0x180F...0x1DBF: return true
        case 0x1E00...0x1FFF: return true
        case 0x200B...0x200D, 0x202A...0x202E, 0x203F...0x2040, 0x2054, 0x2060...0x206F: return true
        case 0x2070...0x20CF, 0x2100...0x218F, 0x2460...0x24FF, 0x2776...0x2793: return true
        case 0x2C00...0x2DFF, 0x2E80...0x2FFF: return true
        case 0x3004...0x3007, 0x3021...0x302F, 0x3031...0x303F, 0x3040...0xD7FF: return true
        case 0xF900...0xFD3D, 0xFD40...0xFDCF, 0xFDF0...0xFE1F, 0xFE30...0xFE44: return true
        case 0xFE47...0xFFFD: return true
        case 0x10000...0xEFFFD: return scalar.value & 0xFFFF <= 0xFFFD
        default: return false
        }
    }

    /// Swift's `identifier-character`: a head, a digit, or a combining mark.
    static func isIdentifierCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x300...0x36F, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F: return true
        default: return isIdentifierHead(scalar)
        }
    }

    /// Identifier characters a reader cannot see, which a generated name never holds: zero-width
    /// spaces and joiners, bidirectional controls, and the invisible operators.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xAD, 0x180B...0x180D, 0x200B...0x200D, 0x202A...0x202E, 0x2060...0x206F, 0xFE00...0xFE0F, 0xFEFF:
            return true
        default: return false
        }
    }

    /// A lowerCamelCase name for an id or event name (`media-player` → `mediaPlayer`,
    /// `done.state.x` → `doneStateX`, `HTTP.POST` → `httpPOST`); `nil` when it has no letter or
    /// digit. A name that would start with a digit starts with an underscore.
    static func caseName(_ text: String) -> String? {
        let parts = words(text)
        guard let first = parts.first else { return nil }
        var name = first.allSatisfy { !$0.isLetter || $0.isUppercase } ? first.lowercased() : lowercasingFirst(first)
        for part in parts.dropFirst() { name += uppercasingFirst(part) }
        if let initial = name.unicodeScalars.first, !isIdentifierHead(initial) { name = "_" + name }
        return isIdentifierInBackticks(name) ? name : nil
    }

    /// An UpperCamelCase name for a type (`media-player` → `MediaPlayer`); `nil` when `text` has no
    /// letter or digit. A name that would start with a digit starts with an underscore.
    static func typeName(_ text: String) -> String? {
        let parts = words(text)
        guard !parts.isEmpty else { return nil }
        var name = parts.map(uppercasingFirst).joined()
        if let initial = name.unicodeScalars.first, !isIdentifierHead(initial) { name = "_" + name }
        return isIdentifier(name) ? name : nil
    }

    /// Whether `text` is a Swift identifier as written, without backticks, by Swift's grammar
    /// scalar by scalar (not by `Character`, whose `isLetter` takes letters with any combining mark
    /// and symbols Swift reads as operators), with nothing invisible in it.
    static func isIdentifier(_ text: String) -> Bool {
        isIdentifierInBackticks(text) && !keywords.contains(text)
    }

    /// Whether `text` is a Swift identifier, in backticks when it is a keyword (`` `default` ``):
    /// Swift's grammar scalar by scalar, nothing invisible, and not `_` alone.
    static func isIdentifierInBackticks(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, isIdentifierHead(first) else { return false }
        return text.unicodeScalars.allSatisfy { isIdentifierCharacter($0) && !isInvisible($0) } && text != "_"
    }

    /// `name` as it is written in a declaration or after a dot: in backticks when Swift reserves it.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
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
