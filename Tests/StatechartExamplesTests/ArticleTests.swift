import Foundation
import StatechartExamples
import Statecharts
import Testing

/// Each example's article shows the chart's code as it is in `Examples/Flows`, and the Mermaid
/// picture the chart draws of itself.
@Suite struct ArticleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let examples: [(article: String, source: String, picture: @Sendable () throws -> String)] = [
        ("ExampleImageCell.md", "ImageCell.swift", { try makeImageCellChart().mermaid() }),
        ("ExampleSwipeToCheck.md", "SwipeToCheck.swift", { try makeSwipeChart().mermaid() }),
        ("ExampleReachability.md", "ReachabilityMonitor.swift", { try makeReachabilityChart().mermaid() }),
    ]

    func read(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appending(path: path), encoding: .utf8)
    }

    @Test(arguments: 0..<3)
    func theArticleShowsTheChartAndItsPicture(example: Int) throws {
        let (article, source, picture) = Self.examples[example]
        let text = try read("Sources/Statecharts/Statecharts.docc/\(article)")
        let code = try read("Examples/Flows/\(source)")
        let start = try #require(code.range(of: "// MARK: - The "))
        let lineEnd = try #require(code[start.upperBound...].firstIndex(of: "\n"))
        let chart = code[code.index(after: lineEnd)...].trimmingCharacters(in: .newlines)
        #expect(text.contains(chart), "\(article) shows the code of \(source) as it is")
        #expect(text.contains("```mermaid\n" + (try picture())), "\(article) shows the chart's picture")
    }

    @Test func theExampleChartsHaveNoErrors() throws {
        #expect(try makeImageCellChart().diagnostics().filter { $0.severity == .error }.isEmpty)
        #expect(try makeSwipeChart().diagnostics().filter { $0.severity == .error }.isEmpty)
        #expect(try makeReachabilityChart().diagnostics().filter { $0.severity == .error }.isEmpty)
    }
}
