/// Where something was written: a Swift source line for charts built in code, or a position in a
/// document for charts read from SCXML.
public struct SourcePosition: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The file: a Swift `#fileID` or a document path.
    public var file: String
    /// The line, starting at 1.
    public var line: Int
    /// The column, starting at 1.
    public var column: Int

    /// A location from its parts.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form compilers and editors understand.
    public var description: String { "\(file):\(line):\(column)" }
}
