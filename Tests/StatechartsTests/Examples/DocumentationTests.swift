import Foundation
import Testing

/// The example articles of the documentation show the charts these tests run, unchanged.
@Suite struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The part of a test file between its `// MARK: - The …` and `// MARK: - Tests` lines.
    func chartSection(of test: String) throws -> String {
        let source = try String(
            contentsOf: Self.root.appending(path: "Tests/StatechartsTests/Examples/\(test)"), encoding: .utf8)
        let start = try #require(source.range(of: "// MARK: - The "))
        let lineEnd = try #require(source[start.upperBound...].firstIndex(of: "\n"))
        let end = try #require(source.range(of: "// MARK: - Tests"))
        return String(source[source.index(after: lineEnd)..<end.lowerBound]).trimmingCharacters(in: .newlines)
    }

    @Test(
        "each example article contains its test's chart code verbatim",
        arguments: [
            ("ExampleGameFlow.md", "GameFlowTests.swift"), ("ExampleMediaPlayer.md", "MediaPlayerTests.swift"),
        ])
    func articleMatchesTest(article: String, test: String) throws {
        let text = try String(
            contentsOf: Self.root.appending(path: "Sources/Statecharts/Statecharts.docc/\(article)"), encoding: .utf8)
        #expect(text.contains(try chartSection(of: test)), "regenerate \(article) from \(test)")
    }
}

extension DocumentationTests {
    @Test("each example article shows the picture its chart draws of itself")
    func articlePictures() throws {
        for (article, picture) in [
            ("ExampleGameFlow.md", try makeGameChart().mermaid()),
            ("ExampleMediaPlayer.md", try makePlayerChart().mermaid()),
        ] {
            let text = try String(
                contentsOf: Self.root.appending(path: "Sources/Statecharts/Statecharts.docc/\(article)"),
                encoding: .utf8)
            #expect(text.contains("```mermaid\n" + picture + "```"), "regenerate the picture in \(article)")
        }
    }

    @Test("the README shows the example that ReadmeTests runs, and the output it prints")
    func readmeMatchesTest() throws {
        let readme = try String(contentsOf: Self.root.appending(path: "README.md"), encoding: .utf8)
        let test = try String(
            contentsOf: Self.root.appending(path: "Tests/StatechartsTests/Examples/ReadmeTests.swift"), encoding: .utf8)
        let start = try #require(test.range(of: "// README example\n"))
        let end = try #require(test.range(of: "        // End of README example"))
        let code = test[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }
            .joined(separator: "\n").trimmingCharacters(in: .newlines)
        #expect(readme.contains("import Statecharts\n\n" + code + "\n```"))
        #expect(readme.contains("```\n" + ReadmeTests.expectedOutput + "\n```"))
    }
}
