import Statecharts

/// A JSON value with where it is written: what the XState importer reads, so that every problem
/// it finds names its line and column, and objects keep their keys in the order written (a
/// machine's states and transitions take their order from them).
///
/// Numbers keep the text they were written with, so that nothing is rounded on the way through.
struct JSONNode: Sendable, Hashable {
    /// The value.
    var value: Value
    /// Where the value starts.
    var location: SourcePosition

    /// The values of JSON.
    indirect enum Value: Sendable, Hashable {
        case null
        case bool(Bool)
        /// A number, as written.
        case number(String)
        case string(String)
        case array([JSONNode])
        /// An object's members, in the order written.
        case object([Member])
    }

    /// A member of an object.
    struct Member: Sendable, Hashable {
        var key: String
        var value: JSONNode
    }

    /// The members of an object; `nil` for any other value.
    var members: [Member]? {
        if case .object(let members) = value { return members }
        return nil
    }

    /// The value of the member `key` of an object.
    subscript(key: String) -> JSONNode? { members?.first { $0.key == key }?.value }

    /// The text of a string.
    var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    /// What kind of value it is, for messages: `a string`, `an object`.
    var kindName: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value as compact JSON text, keys in the order written and numbers as written.
    var json: String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let text): text
        case .string(let text): Escaping.json(text)
        case .array(let items): "[" + items.map(\.json).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.map { Escaping.json($0.key) + ":" + $0.value.json }.joined(separator: ",") + "}"
        }
    }
}

extension JSONNode {
    /// A value made here, with no place in a file.
    init(_ value: Value) {
        self.init(value: value, location: SourcePosition(file: "", line: 0, column: 0))
    }

    /// The value as JSON text indented by two spaces, one member or item per line; empty arrays and
    /// objects, and arrays of plain values, on one line.
    func pretty(indent: Int = 0) -> String {
        let pad = String(repeating: "  ", count: indent + 1)
        let close = String(repeating: "  ", count: indent)
        switch value {
        case .array(let items) where !items.isEmpty:
            let plain = items.allSatisfy { item in
                switch item.value {
                case .array, .object: false
                default: true
                }
            }
            if plain { return json }
            return "[\n" + items.map { pad + $0.pretty(indent: indent + 1) }.joined(separator: ",\n") + "\n" + close
                + "]"
        case .object(let members) where !members.isEmpty:
            return "{\n"
                + members.map { pad + Escaping.json($0.key) + ": " + $0.value.pretty(indent: indent + 1) }.joined(
                    separator: ",\n") + "\n" + close + "}"
        default:
            return json
        }
    }
}

/// Reads JSON text (RFC 8259) into ``JSONNode``s; the first problem ends the reading, with its
/// position.
struct JSONReader {
    /// The deepest nesting of arrays and objects read.
    static let maximumDepth = 200

    let bytes: [UInt8]
    let file: String
    var index = 0
    var line = 1
    var lineStart = 0

    init(_ text: String, file: String) {
        bytes = Array(text.utf8)
        self.file = file
    }

    /// The value of the whole text.
    static func read(_ text: String, file: String) throws(SCXMLError) -> JSONNode {
        var reader = JSONReader(text, file: file)
        do throws(JSONReaderFailure) {
            // A byte order mark is not JSON, but editors write one.
            if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                reader.index = 3
                reader.countedTo = 3
            }
            reader.skipWhitespace()
            let node = try reader.value(depth: 0)
            reader.skipWhitespace()
            if reader.index < reader.bytes.count { throw reader.failure("there is more text after the JSON value") }
            return node
        } catch {
            throw SCXMLError(diagnostics: [SCXMLDiagnostic(.error, error.message, at: error.location)])
        }
    }

    struct JSONReaderFailure: Error {
        var message: String
        var location: SourcePosition
    }

    /// How far the column was counted: positions only move forward, so each byte is counted once.
    var countedTo = 0
    var countedColumn = 1

    /// Where the reader is. Columns count characters, not bytes: a continuation byte of UTF-8 is
    /// not a column.
    var location: SourcePosition {
        mutating get {
            if countedTo < lineStart || countedTo > index {
                countedTo = lineStart
                countedColumn = 1
            }
            let end = min(index, bytes.count)
            while countedTo < end {
                if bytes[countedTo] & 0xC0 != 0x80 { countedColumn += 1 }
                countedTo += 1
            }
            return SourcePosition(file: file, line: line, column: countedColumn)
        }
    }

    mutating func failure(_ message: String) -> JSONReaderFailure {
        JSONReaderFailure(message: "the file is not valid JSON: \(message)", location: location)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(JSONReaderFailure) -> JSONNode {
        let start = location
        guard index < bytes.count else { throw failure("a value is missing at the end") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else {
                throw failure("arrays and objects are nested more than \(Self.maximumDepth) deep")
            }
            index += 1
            var members: [JSONNode.Member] = []
            var keys: Set<String> = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return JSONNode(value: .object([]), location: start)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw failure("an object's key must be a string in double quotes")
                }
                let keyLocation = location
                let key = try string()
                guard keys.insert(key).inserted else {
                    throw JSONReaderFailure(
                        message: "the key \(Escaping.json(key)) is given twice in one object", location: keyLocation)
                }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("':' is missing") }
                index += 1
                skipWhitespace()
                members.append(JSONNode.Member(key: key, value: try value(depth: depth + 1)))
                skipWhitespace()
                guard index < bytes.count else { throw failure("the object is not closed") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "}") else { throw failure("',' or '}' is missing") }
                index += 1
                return JSONNode(value: .object(members), location: start)
            }
        case UInt8(ascii: "["):
            guard depth < Self.maximumDepth else {
                throw failure("arrays and objects are nested more than \(Self.maximumDepth) deep")
            }
            index += 1
            var items: [JSONNode] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return JSONNode(value: .array([]), location: start)
            }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw failure("the array is not closed") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "]") else { throw failure("',' or ']' is missing") }
                index += 1
                return JSONNode(value: .array(items), location: start)
            }
        case UInt8(ascii: "\""):
            return JSONNode(value: .string(try string()), location: start)
        case UInt8(ascii: "t"):
            try literal("true")
            return JSONNode(value: .bool(true), location: start)
        case UInt8(ascii: "f"):
            try literal("false")
            return JSONNode(value: .bool(false), location: start)
        case UInt8(ascii: "n"):
            try literal("null")
            return JSONNode(value: .null, location: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try number()), location: start)
        default:
            throw failure("a value cannot start here")
        }
    }

    mutating func literal(_ word: String) throws(JSONReaderFailure) {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<(index + expected.count)]) == expected else {
            throw failure("a value cannot start here")
        }
        index += expected.count
    }

    mutating func number() throws(JSONReaderFailure) -> String {
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            return index - first
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0 else { throw failure("a number needs digits") }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
            throw failure("a number cannot start with 0 followed by more digits")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw failure("a number needs digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { throw failure("a number needs digits in its exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func string() throws(JSONReaderFailure) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run = index
        func flush(_ reader: JSONReader) {
            guard run < reader.index else { return }
            scalars.append(contentsOf: String(decoding: reader.bytes[run..<reader.index], as: UTF8.self).unicodeScalars)
        }
        while true {
            guard index < bytes.count else { throw failure("a string is not closed") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flush(self)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw failure("a control character must be escaped in a string") }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            flush(self)
            index += 1
            guard index < bytes.count else { throw failure("a string is not closed") }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hexQuad()
                if (0xD800...0xDBFF).contains(code) {
                    guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw failure("a high surrogate is not followed by a low one") }
                    index += 2
                    let low = try hexQuad()
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw failure("a high surrogate is not followed by a low one")
                    }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(code) {
                    throw failure("a low surrogate stands alone")
                }
                guard let scalar = Unicode.Scalar(code) else { throw failure("\\u names no character") }
                scalars.append(scalar)
            default:
                throw failure("'\\\(Character(Unicode.Scalar(escaped)))' is not an escape of JSON")
            }
            run = index
        }
    }

    mutating func hexQuad() throws(JSONReaderFailure) -> UInt32 {
        guard bytes.count - index >= 4 else { throw failure("\\u needs four hexadecimal digits") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("\\u needs four hexadecimal digits")
            }
            code = code << 4 | UInt32(digit)
            index += 1
        }
        return code
    }
}
