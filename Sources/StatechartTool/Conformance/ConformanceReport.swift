import Foundation

/// A run's results as a person or a program reads them.
public struct ConformanceReport: Sendable, Codable {
    /// The results, in order.
    public var results: [ConformanceResult]
    /// The totals.
    public var summary: ConformanceSummary

    /// A report of `results`.
    public init(results: [ConformanceResult]) {
        self.results = results
        summary = ConformanceSummary(results)
    }

    /// One line per test, then `N passed, N failed, N skipped`.
    public var text: String {
        (results.map(\.line) + [summary.line]).joined(separator: "\n")
    }

    /// The report as JSON.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
