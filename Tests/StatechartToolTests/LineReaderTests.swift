#if Tools
import Foundation
import Testing

@testable import StatechartTool

/// Where the repl keeps its history.
@Suite struct LineReaderTests {
    @Test("$STATECHART_HISTORY first, then the user's state folder")
    func historyFile() {
        let chosen = LineReader.defaultHistoryFile(environment: [
            "STATECHART_HISTORY": "/tmp/h", "XDG_STATE_HOME": "/state", "HOME": "/home/ann",
        ])
        #expect(chosen?.path == "/tmp/h")
        #if !os(macOS)
        let xdg = LineReader.defaultHistoryFile(environment: ["XDG_STATE_HOME": "/state", "HOME": "/home/ann"])
        #expect(xdg?.path == "/state/statechart/repl_history")
        let home = LineReader.defaultHistoryFile(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/ann"])
        #expect(home?.path == "/home/ann/.local/state/statechart/repl_history")
        #expect(LineReader.defaultHistoryFile(environment: [:]) == nil)
        #endif
    }

    @Test("input from a pipe is read as plain lines, and nothing goes to the history")
    func pipedInputDoesNotEdit() {
        // Under `swift test`, standard input is not a terminal.
        let reader = LineReader(historyFile: URL(fileURLWithPath: "/nonexistent/history"))
        #expect(reader.edits == (isatty(STDIN_FILENO) == 1))
        if !reader.edits { #expect(reader.historyFile == nil) }
    }
}
#endif
