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
