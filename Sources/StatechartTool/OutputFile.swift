#if Tools
import Foundation

/// Where a command that writes a document puts it: the file of `-o`, or standard output.
enum OutputFile {
    /// Writes `text` to the file `path`, or, without one, on standard output with one line feed at
    /// its end.
    ///
    /// - Throws: ``CommandError`` naming the file when it cannot be written.
    static func write(_ text: String, to path: String?) throws {
        guard let path else {
            print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
            return
        }
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw CommandError("cannot write \(path): \(error.localizedDescription)")
        }
    }
}
#endif
