/// An SCXML event descriptor: which event names a transition accepts.
///
/// A descriptor matches a name when its dot-separated tokens are a prefix of the name's tokens:
/// `"error"` matches `"error"`, `"error.execution"` and `"error.send.failed"`, but not `"errors"`.
/// A trailing `".*"` is allowed and ignored (`"error.*"` is `"error"`), and `"*"` matches every
/// name.
public struct EventDescriptor: Hashable, Sendable, CustomStringConvertible {
    /// The descriptor as written, without a trailing `".*"`.
    public let pattern: String

    /// Whether this is the wildcard `"*"`.
    public var isWildcard: Bool { pattern == "*" }

    /// A descriptor from its written form.
    public init(_ text: String) {
        var text = Substring(text)
        while text.hasSuffix(".*") { text = text.dropLast(2) }
        while text.hasSuffix(".") { text = text.dropLast() }
        pattern = String(text)
    }

    /// Whether the event name `name` matches this descriptor.
    ///
    /// - Complexity: O(*n*) in the length of the descriptor.
    public func matches(_ name: String) -> Bool {
        if isWildcard { return true }
        if pattern.isEmpty { return false }
        guard name.utf8.starts(with: pattern.utf8) else { return false }
        let nameBytes = name.utf8
        if nameBytes.count == pattern.utf8.count { return true }
        let next = nameBytes[nameBytes.index(nameBytes.startIndex, offsetBy: pattern.utf8.count)]
        return next == UInt8(ascii: ".")
    }

    /// The descriptor as written, without a trailing `".*"`.
    public var description: String { pattern }

    /// The descriptors of SCXML `event` attributes: each string split at whitespace.
    public static func list(_ texts: [String]) -> [EventDescriptor] {
        texts.flatMap { $0.split(whereSeparator: \.isWhitespace) }.map { EventDescriptor(String($0)) }
    }
}
