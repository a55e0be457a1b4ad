#if Tools
import Foundation
import Testing

/// `statechart graph`: golden pictures of the shipped examples.
@Suite(.enabled(if: CommandLine.binary != nil, CommandLine.missing))
struct GraphCommandTests {
    func golden(_ name: String) throws -> String {
        try String(contentsOf: CommandLine.fixtures.appendingPathComponent("golden/\(name)"), encoding: .utf8)
    }

    @Test(
        "Mermaid and DOT of each example match their golden files",
        arguments: [
            ("lamp", "mermaid", "lamp.mmd"), ("lamp", "dot", "lamp.dot"),
            ("media-player", "mermaid", "media-player.mmd"), ("media-player", "dot", "media-player.dot"),
        ])
    func golden(example: String, format: String, file: String) async throws {
        let output = try await CommandLine.run(["graph", "Examples/\(example).scxml", "--format", format])
        #expect(output.status == 0)
        #expect(output.standardOutput == (try golden(file)))
    }

    @Test("--format scxml writes a document that reads back to the same picture")
    func scxmlRoundTrip() async throws {
        let directory = try CommandLine.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("written.scxml")
        let written = try await CommandLine.run([
            "graph", "Examples/media-player.scxml", "--format", "scxml", "-o", file.path,
        ])
        #expect(written.status == 0)
        let again = try await CommandLine.run(["graph", file.path, "--format", "mermaid"])
        #expect(again.standardOutput == (try golden("media-player.mmd")))
    }

    @Test("--format svg draws with the library's own layout, with no other program; --layout dot asks for Graphviz")
    func svg() async throws {
        let output = try await CommandLine.run(["graph", "Examples/media-player.scxml", "--format", "svg"])
        #expect(output.status == 0, "\(output.standardError)")
        let svg = output.standardOutput
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"statechart\""))
        for state in ["stopped", "active", "transport", "playing", "paused", "volume", "audible", "muted", "ejected"] {
            #expect(svg.contains("data-state=\"\(state)\""), "the state \(state) is drawn")
        }
        let byGraphviz = try await CommandLine.run([
            "graph", "Examples/lamp.scxml", "--format", "svg", "--layout", "dot",
        ])
        let hasDot = ["/usr/bin/dot", "/usr/local/bin/dot", "/opt/homebrew/bin/dot"].contains {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        if hasDot {
            #expect(byGraphviz.status == 0)
            #expect(byGraphviz.standardOutput.contains("<svg"))
            #expect(byGraphviz.standardOutput.contains(">dim</text>"))
            #expect(
                !byGraphviz.standardOutput.contains("class=\"statechart\""), "Graphviz's picture, not the library's")
        } else {
            #expect(byGraphviz.status != 0)
            #expect(byGraphviz.standardError.contains("apt-get install graphviz"))
        }
    }

    @Test("an unknown format is refused with the formats there are")
    func unknownFormat() async throws {
        let output = try await CommandLine.run(["graph", "--format", "png"])
        #expect(output.status != 0)
        #expect(output.standardError.contains("mermaid"))
    }
}
#endif
