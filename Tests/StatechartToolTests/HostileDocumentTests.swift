#if Tools
import Foundation
import StatechartTool
import Statecharts
import Testing

/// Documents written to hang, crash, exhaust memory or read outside their folder: one per class
/// of attack (Tests/StatechartToolTests/Fixtures/Hostile). Each run of the tool ends, within the
/// limits, with a clear message or the state the document reaches when it is refused, and an exit
/// status that is not a crash.
@Suite("Hostile documents end within the limits", .serialized)
struct HostileDocumentTests {
    static let hostile = CommandLine.fixtures.appendingPathComponent("Hostile")

    static func run(_ name: String, _ arguments: [String] = []) async throws -> CommandLine.Output {
        try await CommandLine.run(["run", hostile.appendingPathComponent(name).path] + arguments)
    }

    #if ECMAScript
    @Test(
        "scripts cannot escape the time limit: WebAssembly, promise chains and async loops are refused",
        .timeLimit(.minutes(1)), arguments: ["webassembly-loop.scxml", "promise-loop.scxml", "async-loop.scxml"])
    func asynchronousAndWebAssembly(name: String) async throws {
        let output = try await Self.run(name)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("start → [refused]"))
        // Why: the error the document took, at its <script>.
        #expect(output.standardError.contains("\(name):6:7: error: error.execution from <script>: "))
        let reason = [
            "webassembly-loop.scxml": "Can't find variable: WebAssembly",
            "promise-loop.scxml": "Can't find variable: Promise",
            "async-loop.scxml":
                "asynchronous JavaScript is not available to documents ('async' at line 1 of the script)",
        ]
        #expect(output.standardError.contains(reason[name] ?? "?"), "\(output.standardError)")
    }

    @Test("a guard that busy-waits in every microstep ends the run with the script-time limit", .timeLimit(.minutes(1)))
    func busyGuard() async throws {
        let output = try await Self.run("busy-guard.scxml", ["--script-time", "300ms"])
        #expect(output.status == 1)
        #expect(output.standardError.contains("the limit scriptTime is 0.3 seconds"), "\(output.standardError)")
        #expect(output.standardError.contains("busy-guard.scxml:"))
    }

    @Test("a script that fills the heap is stopped and the run ends with a typed error", .timeLimit(.minutes(1)))
    func heapGrowth() async throws {
        let output = try await Self.run("heap-growth.scxml")
        #expect(output.status == 1)
        #expect(output.standardError.contains("the run was ended"), "\(output.standardError)")
        #expect(output.standardError.contains("heap-growth.scxml:6:"))
    }

    @Test("a <foreach> over 4294967295 items raises error.execution and runs nothing", .timeLimit(.minutes(1)))
    func hugeForeach() async throws {
        let output = try await Self.run("foreach-huge-array.scxml")
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("start → [refused]"))
        #expect(
            output.standardError.contains(
                "foreach-huge-array.scxml:6:16: error: error.execution from <foreach>: the array 'new Array(4294967295)' has 4294967295 items: the limit foreachItems is 100000 items"
            ), "\(output.standardError)")
    }

    @Test("20,000 delayed sends: those past the pending-timer limit raise error.execution", .timeLimit(.minutes(1)))
    func manyTimers() async throws {
        // The cascade's script time (1 s by default, on the wall clock) is not what this test is
        // about: a debug build on a busy 2-core machine can spend it on the 20,000 sends.
        let output = try await Self.run("many-timers.scxml", ["--script-time", "30s"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("start → [refused]"))
    }

    @Test("a setter on Object.prototype cannot forge the fields of _event")
    func forgedEvent() async throws {
        let output = try await Self.run("forged-event.scxml")
        #expect(output.standardOutput.contains("start → [genuine]"), "\(output.standardOutput)")
    }
    #endif

    @Test(
        "documents that invoke themselves stop at the invocation depth",
        .timeLimit(.minutes(1)), arguments: ["invoke-itself.scxml", "invoke-nested-content.scxml"])
    func invocationDepth(name: String) async throws {
        let output = try await Self.run(name)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(
            output.standardError.contains("the limit invocationDepth is 10 levels"), "\(output.standardError)")
        // Ten levels run; the eleventh is refused.
        #expect(output.standardOutput.contains("statechart.1.1.1.1.1.1.1.1.1"))
        #expect(!output.standardOutput.contains("statechart.1.1.1.1.1.1.1.1.1.1.1 "))
    }

    @Test(
        "a parent and a child that answer each other for ever stop at the cascade's microstep limit",
        .timeLimit(.minutes(1)))
    func sessionsPingPong() async throws {
        let output = try await Self.run("sessions-ping-pong.scxml", ["--microstep-limit", "5000"])
        #expect(output.status == 1)
        #expect(output.standardError.contains("stopped after 5000 microsteps"), "\(output.standardError)")
    }

    @Test(
        "a timer that re-arms every millisecond, run for an hour, stops at the step bound in constant memory",
        .timeLimit(.minutes(1)))
    func timerEveryMillisecond() async throws {
        let output = try await Self.run(
            "timer-every-millisecond.scxml", ["--events", "wait 1h", "--max-steps", "20000"])
        #expect(output.status == 1)
        #expect(output.standardError.contains("the run was stopped after 20000 steps"), "\(output.standardError)")
    }

    @Test(
        "an eventless loop that arms a timer at each turn ends the run at the start, not at every instant",
        .timeLimit(.minutes(1)))
    func eventlessLoopRearmingTimer() async throws {
        let output = try await Self.run(
            "eventless-loop-rearming-timer.scxml", ["--events", "wait 1h", "--microstep-limit", "5000"])
        #expect(output.status == 1)
        #expect(
            output.standardError.contains("the step was stopped after 5000 microsteps in the configuration [ticking]"),
            "\(output.standardError)")
        #expect(!output.standardOutput.contains("wait 1h"))
    }

    @Test("the repl keeps the same step bound and limits as run")
    func replBound() async throws {
        let output = try await CommandLine.run(
            ["repl", Self.hostile.appendingPathComponent("timer-every-millisecond.scxml").path, "--max-steps", "500"],
            input: "wait 1h\n")
        #expect(output.status == 0)
        #expect(
            output.standardOutput.contains("error: the run was stopped after 500 steps"), "\(output.standardOutput)")
    }

    @Test("a document that declares entities is refused at the declaration")
    func entityDeclaration() async throws {
        let output = try await Self.run("entity-declaration.scxml")
        #expect(output.status == 1)
        #expect(output.standardError.contains("entity-declaration.scxml:3:3: error: the document declares an entity"))
    }

    @Test("a 1 MB entity used in text is refused at once, not expanded", .timeLimit(.minutes(1)))
    func largeEntity() async throws {
        let directory = try CommandLine.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let big = String(repeating: "x", count: 1 << 20)
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE scxml [<!ENTITY big "\(big)">]>
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
              <state id="a"><onentry><log label="&big;&big;&big;&big;" expr="'&big;'"/></onentry></state>
            </scxml>
            """
        let file = directory.appendingPathComponent("entity.scxml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let output = try await CommandLine.run(["check", file.path])
        #expect(output.status != 0)
        #expect(
            output.standardError.contains("entity.scxml:2:18: error: the document declares an entity"),
            "\(output.standardError)")
    }

    #if ECMAScript
    @Test("a symbolic link in the document's folder cannot lead a src outside it")
    func symbolicLinks() async throws {
        let outside = try CommandLine.temporaryDirectory()
        let folder = try CommandLine.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: outside)
            try? FileManager.default.removeItem(at: folder)
        }
        try "secret".write(to: outside.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("link"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("data.txt"),
            withDestinationURL: outside.appendingPathComponent("secret.txt"))
        let document = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
              <datamodel><data id="d" src="data.txt"/></datamodel>
              <state id="a"><invoke type="scxml" src="link/child.scxml"/></state>
            </scxml>
            """
        try document.write(to: outside.appendingPathComponent("child.scxml"), atomically: true, encoding: .utf8)
        let file = folder.appendingPathComponent("chart.scxml")
        try document.write(to: file, atomically: true, encoding: .utf8)
        let output = try await CommandLine.run(["run", file.path])
        #expect(
            output.standardError.contains(
                "'data.txt' is not read: a symbolic link leads outside the document's folder"),
            "\(output.standardError)")
        #expect(
            output.standardError.contains("'link/child.scxml' is not read: a symbolic link leads outside"),
            "\(output.standardError)")
        #expect(!output.standardOutput.contains("secret"))
    }

    @Test("an empty file named by src is empty text, not a file that cannot be read")
    func emptySourceFile() async throws {
        let folder = try CommandLine.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent("empty.txt"))
        let file = folder.appendingPathComponent("chart.scxml")
        try """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
          <datamodel><data id="d" src="empty.txt"/></datamodel>
          <state id="a"><onentry><log label="d" expr="typeof d + ':' + d.length"/></onentry></state>
        </scxml>
        """.write(to: file, atomically: true, encoding: .utf8)
        let output = try await CommandLine.run(["run", file.path])
        #expect(output.status == 0)
        #expect(output.standardError.isEmpty, "\(output.standardError)")
        #expect(output.standardOutput.contains("log d: string:0"), "\(output.standardOutput)")
    }
    #endif

    @Test("a limit given in MiB past what Int holds is the largest limit, not a wrapped one")
    func heapOptionSaturates() throws {
        let options = try LimitOptions.parse(["--heap", "\(Int.max)", "--document-size", "\(Int.max)"])
        let limits = try options.limits()
        #expect(limits.javaScriptHeap == Int.max)
        #expect(limits.documentSize == Int.max)
    }

    @Test("a <log> cannot drive the terminal: control characters are shown, not sent")
    func logEscapes() {
        let line = Escaping.terminal("x: \u{1B}[2J\u{1B}]0;owned\u{07}plain\tok")
        #expect(line == "x: \\u{1B}[2J\\u{1B}]0;owned\\u{7}plain\tok")
    }
}
#endif
