#if Tools
import Foundation
import StatechartsTesting
import Testing

/// Colour in the tool's output: on a terminal by default, never through a pipe, off under
/// `NO_COLOR` or `--color never`, and on everywhere with `--color always`.
@Suite(.enabled(if: CommandLine.binary != nil, CommandLine.missing))
struct ColorTests {
    static let escape = "\u{1B}["

    /// A document with three errors, written to a folder of its own.
    static func brokenDocument() throws -> URL {
        try CommandLine.document(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a">
              <state id="a"><transition event="x" target="nowhere"/></state>
              <state id="a"/>
              <state id="b"><transition target="away"/></state>
            </scxml>
            """, named: "three.scxml")
    }

    @Test("--color always colours each problem's place and severity; --color never and a pipe write no escape")
    func explicitModes() async throws {
        let file = try Self.brokenDocument()
        let always = try await CommandLine.run(["check", file.path, "--color", "always"])
        #expect(always.status == 1)
        let lines = always.standardError.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(
            lines.allSatisfy {
                $0.hasPrefix("\(Self.escape)1m\(file.path):") && $0.contains("\(Self.escape)1;31merror:")
            })
        let never = try await CommandLine.run(["check", file.path, "--color=never"])
        let piped = try await CommandLine.run(["check", file.path])
        for output in [never, piped] {
            #expect(output.status == 1)
            #expect(!output.standardError.contains("\u{1B}"))
            #expect(output.standardError.split(separator: "\n").allSatisfy { $0.hasPrefix("\(file.path):") })
        }
    }

    @Test("a wrong --color value is a usage error, status 64, in JSON too")
    func wrongValue() async throws {
        let text = try await CommandLine.run(["run", "Examples/lamp.scxml", "--color", "sometimes"])
        #expect(text.status == 64)
        #expect(text.standardError == "Error: --color takes auto, always or never, not 'sometimes'\n")
        let json = try await CommandLine.run(["run", "Examples/lamp.scxml", "--json", "--color"])
        #expect(json.status == 64)
        #expect(json.standardOutput.contains(#""message":"--color needs a value: auto, always or never""#))
    }

    @Test("test results: PASS green, FAIL and the count of failures red")
    func testResults() async throws {
        let output = try await CommandLine.run([
            "test", "Tests/StatechartToolTests/Fixtures/suite", "--color", "always",
        ])
        #expect(output.standardOutput.contains("\(Self.escape)32mPASS\(Self.escape)0m "))
        #expect(output.standardOutput.contains("\(Self.escape)1;31mFAIL\(Self.escape)0m "))
        #expect(output.standardOutput.contains("\(Self.escape)1;31m2 failed\(Self.escape)0m"))
    }

    @Test(
        "on a terminal the default colours, and NO_COLOR turns it off",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux's script gives a terminal")
    )
    func terminal() async throws {
        let file = try Self.brokenDocument()
        let binary = try #require(CommandLine.binary)
        func underTerminal(_ environment: [String]) async throws -> String {
            // `script` runs the tool with its output on a pseudo-terminal, and copies it to ours.
            let command = "\(binary.path) check \(file.path)"
            let result = try await ChildProcess(
                executable: URL(fileURLWithPath: "/usr/bin/env"),
                arguments: environment + ["/usr/bin/script", "-qec", command, "/dev/null"]
            ).run(input: Data())
            return result.outputText
        }
        // Whatever the test runner's own environment says about colour.
        let coloured = try await underTerminal(["-u", "NO_COLOR", "TERM=xterm"])
        #expect(coloured.contains("\(Self.escape)1;31merror:"), "\(coloured)")
        let plain = try await underTerminal(["TERM=xterm", "NO_COLOR=1"])
        #expect(!plain.contains("\(Self.escape)1;31m"))
        #expect(plain.contains("\(file.lastPathComponent):2:"))
    }
}
#endif
