/// An error a command reports as one line, `Error: ...`, with a non-zero status.
struct CommandError: Error, CustomStringConvertible {
    /// A plain sentence.
    var description: String

    init(_ description: String) { self.description = description }
}
