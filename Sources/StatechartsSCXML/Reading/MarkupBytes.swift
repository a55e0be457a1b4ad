import Foundation

/// A document's bytes, for the scans the reader makes before parsing: prefixes at an offset, and
/// the end of a construct (a comment, a CDATA section, a processing instruction).
struct MarkupBytes {
    let bytes: [UInt8]

    init(_ data: Data) {
        bytes = [UInt8](data)
    }

    static let commentOpen = Array("<!--".utf8)
    static let commentClose = Array("-->".utf8)
    static let cdataOpen = Array("<![CDATA[".utf8)
    static let cdataClose = Array("]]>".utf8)
    static let instructionOpen = Array("<?".utf8)
    static let instructionClose = Array("?>".utf8)
    static let entityDeclaration = Array("<!ENTITY".utf8)
    static let declarationOpen = Array("<!".utf8)

    /// Whether `prefix` starts at `index`.
    func starts(_ prefix: [UInt8], at index: Int) -> Bool {
        guard index >= 0, index + prefix.count <= bytes.count else { return false }
        for offset in 0..<prefix.count where bytes[index + offset] != prefix[offset] { return false }
        return true
    }

    /// The offset just after the first `terminator` at or after `index`; the end when there is none.
    func skip(past terminator: [UInt8], from index: Int) -> Int {
        var cursor = index
        while cursor + terminator.count <= bytes.count {
            if starts(terminator, at: cursor) { return cursor + terminator.count }
            cursor += 1
        }
        return bytes.count
    }
}

extension MarkupBytes {
    /// The most attributes, namespace declarations included, that the reader takes on one
    /// element: SCXML's elements have a dozen at most. The XML parser checks each attribute of a
    /// start tag against all the others, in time that grows with the square of their count
    /// (300,000 attributes took 25 s), so a start tag with more is refused before it is parsed.
    static let maximumAttributes = 1000

    /// The offset of the first start tag with more than `limit` attributes, or `nil`; in one pass,
    /// in time linear in the markup. Comments, CDATA sections, processing instructions and
    /// declarations (with their internal subset) are skipped; an attribute is an `=` outside quotes
    /// in a start tag.
    func firstElement(withMoreAttributesThan limit: Int) -> Int? {
        let less = UInt8(ascii: "<")
        var index = 0
        while index < bytes.count {
            guard bytes[index] == less else {
                index += 1
                continue
            }
            if starts(Self.commentOpen, at: index) {
                index = skip(past: Self.commentClose, from: index + 4)
            } else if starts(Self.cdataOpen, at: index) {
                index = skip(past: Self.cdataClose, from: index + 9)
            } else if starts(Self.instructionOpen, at: index) {
                index = skip(past: Self.instructionClose, from: index + 2)
            } else if starts(Self.declarationOpen, at: index) {
                index = skipDeclaration(from: index + 2)
            } else {
                let (end, attributes) = scanTag(from: index + 1, limit: limit)
                if attributes > limit { return index }
                index = end
            }
        }
        return nil
    }

    /// The offset after a tag that starts at `index` (after its `<`), and how many attributes it
    /// has, counting no further than one past `limit`.
    private func scanTag(from index: Int, limit: Int) -> (end: Int, attributes: Int) {
        var cursor = index
        var quote: UInt8?
        var attributes = 0
        while cursor < bytes.count {
            let byte = bytes[cursor]
            cursor += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "=") {
                attributes += 1
                if attributes > limit { return (cursor, attributes) }
            } else if byte == UInt8(ascii: ">") {
                break
            }
        }
        return (cursor, attributes)
    }

    /// The offset after a declaration (`<!DOCTYPE ...>`, with an internal subset in brackets)
    /// whose content starts at `index`.
    private func skipDeclaration(from index: Int) -> Int {
        var cursor = index
        var quote: UInt8?
        var depth = 0
        while cursor < bytes.count {
            if quote == nil, starts(Self.commentOpen, at: cursor) {
                cursor = skip(past: Self.commentClose, from: cursor + 4)
                continue
            }
            let byte = bytes[cursor]
            cursor += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth = max(0, depth - 1)
            } else if byte == UInt8(ascii: ">"), depth == 0 {
                break
            }
        }
        return cursor
    }
}
