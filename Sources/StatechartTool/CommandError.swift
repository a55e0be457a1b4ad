/// An error a command reports as one line, `Error: ...`, with a non-zero status.
public struct CommandError: Error, CustomStringConvertible {
    /// A plain sentence.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
