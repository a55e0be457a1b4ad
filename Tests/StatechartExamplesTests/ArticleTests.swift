import Foundation
import StatechartExamples
import Statecharts
import StatechartsTesting
import Testing

/// Each example's article shows the chart's code as it is in `Examples/Flows`, and the SVG picture
/// the chart draws of itself, kept in the catalog (`Scripts/pictures.sh` draws them again).
@Suite struct ArticleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let examples: [(article: String, source: String, picture: String, svg: @Sendable () throws -> String)] = [
        ("ExampleImageCell.md", "ImageCell.swift", "example-image-cell.svg", { try makeImageCellChart().svg() }),
        ("ExampleSwipeToCheck.md", "SwipeToCheck.swift", "example-swipe-to-check.svg", { try makeSwipeChart().svg() }),
        (
            "ExampleReachability.md", "ReachabilityMonitor.swift", "example-reachability.svg",
            { try makeReachabilityChart().svg() }
        ),
    ]

    func read(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appending(path: path), encoding: .utf8)
    }

    @Test(arguments: 0..<3)
    func theArticleShowsTheChartAndItsPicture(example: Int) throws {
        let (article, source, picture, svg) = Self.examples[example]
        let text = try read("Sources/Statecharts/Statecharts.docc/\(article)")
        let code = try read("Examples/Flows/\(source)")
        let start = try #require(code.range(of: "// MARK: - The "))
        let lineEnd = try #require(code[start.upperBound...].firstIndex(of: "\n"))
        let chart = code[code.index(after: lineEnd)...].trimmingCharacters(in: .newlines)
        #expect(text.contains(chart), "\(article) shows the code of \(source) as it is")
        #expect(text.contains("](\(picture))"), "\(article) shows the chart's picture")
        let file = Self.root.appending(path: "Sources/Statecharts/Statecharts.docc/Resources/\(picture)")
        #expect(try CheckedInFile.isCurrent(try svg(), at: file), "\(picture) is stale: run Scripts/pictures.sh")
    }

    @Test func theExampleChartsHaveNoErrors() throws {
        #expect(try makeImageCellChart().diagnostics().filter { $0.severity == .error }.isEmpty)
        #expect(try makeSwipeChart().diagnostics().filter { $0.severity == .error }.isEmpty)
        #expect(try makeReachabilityChart().diagnostics().filter { $0.severity == .error }.isEmpty)
    }
}
