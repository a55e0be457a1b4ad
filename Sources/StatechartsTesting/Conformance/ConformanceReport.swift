import Foundation

/// A run's results as a person or a program reads them.
public struct ConformanceReport: Sendable, Codable {
    /// The results, in order.
    public var results: [ConformanceResult]
    /// The totals.
    public var summary: ConformanceSummary
    /// The totals of the W3C tests the suite marks mandatory; `nil` when there are none.
    public var mandatory: ConformanceSummary?
    /// The totals of the W3C tests the suite marks optional; `nil` when there are none.
    public var optional: ConformanceSummary?
    /// What the run exercised of each chart, when coverage was asked for.
    public var coverage: [ChartCoverage]?

    /// A report of `results`, with `coverage` when coverage was recorded.
    public init(results: [ConformanceResult], coverage: [ChartCoverage]? = nil) {
        self.results = results
        self.coverage = coverage
        summary = ConformanceSummary(results)
        mandatory = Self.group("mandatory", of: results)
        optional = Self.group("optional", of: results)
    }

    static func group(_ conformance: String, of results: [ConformanceResult]) -> ConformanceSummary? {
        let group = results.filter { $0.conformance?.hasPrefix(conformance) == true }
        return group.isEmpty ? nil : ConformanceSummary(group)
    }

    /// One line per test, then the totals of mandatory and optional W3C tests on a line each when
    /// there are any (`mandatory: N passed, N failed, N skipped`), then the totals of all, then the
    /// coverage of each chart when there is one.
    public var text: String {
        var lines = results.map(\.line)
        if let mandatory { lines.append("mandatory: \(mandatory.line)") }
        if let optional { lines.append("optional: \(optional.line)") }
        lines.append(summary.line)
        if let coverage {
            lines.append("coverage:")
            lines += coverage.flatMap(\.lines)
        }
        return lines.joined(separator: "\n")
    }

    /// The report as JSON.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
