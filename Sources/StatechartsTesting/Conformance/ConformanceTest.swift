import Foundation

/// One test of a conformance suite, found on disk.
public struct ConformanceTest: Sendable, Hashable {
    /// A name for reports: the chart's path relative to the folder given, without extension.
    public var name: String
    /// What kind of test it is.
    public var kind: Kind
    /// The charts to run: one for most tests, several for some W3C assertions.
    public var charts: [URL]
    /// For a W3C test: its row of `categories.tsv`, when there is one.
    public var w3c: W3CInfo?

    /// The kinds of test.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A SCION test: a chart and a JSON script of events and expected configurations.
        case scion
        /// A W3C test: the chart must reach its top-level `<final id="pass">`.
        case w3c
    }

    /// What `categories.tsv` says of a W3C test.
    public struct W3CInfo: Sendable, Hashable, Codable {
        /// The assertion number.
        public var number: String
        /// `mandatory` or `optional`.
        public var conformance: String
        /// Whether a person must read the log.
        public var manual: Bool
        /// `a`, `b`, `c`, `d` or `n/a-xpath`.
        public var category: String
        /// The features it uses.
        public var features: [String]

        /// The category of a test `manifest.xml` lists but this copy of the suite has no file for.
        public static let absentCategory = "absent"

        /// What the category needs, for skip reasons.
        public var categoryDescription: String {
            switch category {
            case Self.absentCategory: return "a file this copy of the suite does not have (manifest.xml lists it)"
            case "a": return "no data model"
            case "b": return "simple ECMAScript expressions"
            case "c": return "an ECMAScript data model"
            case "d": return "<invoke>, an event I/O processor or external files"
            case "n/a-xpath": return "the obsolete XPath data model"
            default: return "category \(category)"
            }
        }
    }
}

/// The outcome of one test.
public struct ConformanceResult: Sendable, Hashable, Codable {
    /// The test's name.
    public var name: String
    /// Passed, failed, skipped or absent.
    public var outcome: Outcome
    /// Why it failed or was skipped; for a failure, the step and the expected and actual configurations.
    public var detail: String?
    /// For a W3C test: mandatory or optional.
    public var conformance: String?
    /// The active states after each step that ran (the start, each event, each timer), one line
    /// per step: what two runs of the same test are compared by.
    public var trace: [String] = []
    /// What the test exercised of each chart it ran, by the chart's path, when the runner
    /// records coverage; `nil` otherwise.
    public var coverage: [String: CoverageRecord]?

    /// What became of a test.
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// It ran and passed.
        case passed
        /// It ran and failed, or could not run although it should have.
        case failed
        /// An optional or manual test that needs a feature this build does not have.
        case skipped
        /// The suite lists it, but this copy of the suite has no file for it.
        case absent
    }

    /// A result from its parts.
    public init(name: String, outcome: Outcome, detail: String? = nil, conformance: String? = nil) {
        self.name = name
        self.outcome = outcome
        self.detail = detail
        self.conformance = conformance
    }

    /// `PASS name`, `FAIL name: detail`, `SKIP name: reason`, `ABSENT name: reason`.
    public var line: String {
        let label: String
        switch outcome {
        case .passed: label = "PASS"
        case .failed: label = "FAIL"
        case .skipped: label = "SKIP"
        case .absent: label = "ABSENT"
        }
        let qualifier = conformance.map { " (\($0))" } ?? ""
        return detail.map { "\(label) \(name)\(qualifier): \($0)" } ?? "\(label) \(name)\(qualifier)"
    }
}

/// The totals of a run.
public struct ConformanceSummary: Sendable, Hashable, Codable {
    /// How many tests passed, failed, were skipped and are absent.
    public var passed = 0, failed = 0, skipped = 0, absent = 0

    /// Totals from their counts.
    public init(passed: Int, failed: Int, skipped: Int, absent: Int = 0) {
        self.passed = passed
        self.failed = failed
        self.skipped = skipped
        self.absent = absent
    }

    /// Totals of `results`.
    public init(_ results: [ConformanceResult]) {
        for result in results {
            switch result.outcome {
            case .passed: passed += 1
            case .failed: failed += 1
            case .skipped: skipped += 1
            case .absent: absent += 1
            }
        }
    }

    /// `N passed, N failed, N skipped`, then `, N absent` when some are.
    public var line: String {
        let counts = "\(passed) passed, \(failed) failed, \(skipped) skipped"
        return absent > 0 ? counts + ", \(absent) absent" : counts
    }
}
