#if Tools
import Foundation

#if LineEditing
import CEditLine
#endif

/// Where the repl reads its lines. On a terminal, with the trait LineEditing, libedit reads them:
/// line editing, a history kept across runs in ``historyFile``, and completion (Tab) of the words
/// ``completions`` gives at each prompt. Otherwise (input from a pipe or a file, or a build without
/// the trait), plain lines, and nothing is written to the history.
final class LineReader {
    /// The file the history is read from and written to, when the reader edits lines.
    let historyFile: URL?
    /// Whether libedit reads the lines.
    let edits: Bool
    /// The words Tab completes at the next prompt.
    var completions: [String] = []

    /// How many lines the history keeps.
    static let historyLength: Int32 = 1000

    /// A reader of standard input; it edits lines when standard input is a terminal and the build
    /// has line editing.
    init(historyFile: URL?) {
        #if LineEditing
        edits = isatty(STDIN_FILENO) == 1
        #else
        edits = false
        #endif
        self.historyFile = edits ? historyFile : nil
        #if LineEditing
        if edits {
            statechart_line_editing_setup(LineReader.complete)
            stifle_history(Self.historyLength)
            if let historyFile {
                try? FileManager.default.createDirectory(
                    at: historyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
                _ = read_history(historyFile.path)
            }
        }
        #endif
    }

    /// The next line, without its line break, after showing `prompt`; `nil` at the end of input.
    func read(prompt: String) -> String? {
        #if LineEditing
        if edits {
            LineReader.candidates = completions
            guard let line = readline(prompt) else { return nil }
            defer { free(line) }
            return String(cString: line)
        }
        #endif
        writeUnbuffered(prompt)
        return readLine()
    }

    /// Adds `line` to the history, and writes the history to its file.
    func remember(_ line: String) {
        #if LineEditing
        guard edits, !line.isEmpty else { return }
        _ = add_history(line)
        if let historyFile { _ = write_history(historyFile.path) }
        #endif
    }

    /// Where the repl keeps its history: `$STATECHART_HISTORY` if it is set; otherwise
    /// `statechart/repl_history` in the user's state folder (`$XDG_STATE_HOME`, or
    /// `~/.local/state`; `~/Library/Application Support` on macOS).
    static func defaultHistoryFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let path = environment["STATECHART_HISTORY"], !path.isEmpty { return URL(fileURLWithPath: path) }
        let state: URL
        #if os(macOS)
        guard let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
        else { return nil }
        state = support
        #else
        if let path = environment["XDG_STATE_HOME"], path.hasPrefix("/") {
            state = URL(fileURLWithPath: path)
        } else if let home = environment["HOME"], !home.isEmpty {
            state = URL(fileURLWithPath: home).appendingPathComponent(".local/state")
        } else {
            return nil
        }
        #endif
        return state.appendingPathComponent("statechart/repl_history")
    }

    #if LineEditing
    /// The words of the current prompt's completion. libedit calls ``complete`` from the thread
    /// that called `readline`, while `read(prompt:)` waits for it: never at the same time as a write.
    nonisolated(unsafe) static var candidates: [String] = []

    /// libedit's completion hook: the candidates that start with the word being completed.
    static let complete:
        @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> UnsafeMutablePointer<
            UnsafeMutablePointer<CChar>?
        >? = { text, _, _ in
            // No file names when nothing matches.
            statechart_completion_over()
            guard let text else { return nil }
            return rl_completion_matches(text, LineReader.nextMatch)
        }

    /// Called with state 0 for the first match and more for the next, until it returns `nil`.
    static let nextMatch: @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<CChar>? = {
        text, state in
        let prefix = text.map { String(cString: $0) } ?? ""
        let matches = LineReader.candidates.filter { $0.hasPrefix(prefix) }
        guard Int(state) < matches.count else { return nil }
        return strdup(matches[Int(state)])
    }
    #endif
}
#endif
