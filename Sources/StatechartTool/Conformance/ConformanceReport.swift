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

    /// One line per test, then the totals of mandatory and optional W3C tests when there are
    /// any, then `N passed, N failed, N skipped`.
    public var text: String {
        var lines = results.map(\.line)
        for conformance in ["mandatory", "optional"] {
            let group = results.filter { $0.conformance?.hasPrefix(conformance) == true }
            if !group.isEmpty { lines.append("\(conformance): \(ConformanceSummary(group).line)") }
        }
        return (lines + [summary.line]).joined(separator: "\n")
    }

    /// The report as JSON.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
