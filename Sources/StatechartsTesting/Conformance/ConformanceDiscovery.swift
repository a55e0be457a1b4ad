import Foundation
import StatechartsSCXML

/// Finds the tests under a file or folder.
public enum ConformanceDiscovery {
    /// The tests at `path`: a chart, or every chart in a folder and its subfolders.
    ///
    /// A chart with a JSON file of the same name next to it is a SCION test; one with a top-level
    /// `<final id="pass">` is a W3C test; any other chart is a document that tests use, not a
    /// test. In a folder with a `categories.tsv` (the W3C suite), that table says which charts are
    /// tests, which are documents other tests use, and what each test needs.
    ///
    /// - Throws: ``ConformanceError`` when there is nothing at `path`, when it is a file that is
    ///   not a chart or a chart that is not a test, or a folder with no test.
    public static func tests(at path: String) throws(ConformanceError) -> [ConformanceTest] {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ConformanceError("there is no file or folder at \(path)")
        }
        if !isDirectory.boolValue {
            guard url.pathExtension == "scxml" else { throw ConformanceError("\(path) is not an .scxml file") }
            guard let test = test(for: url, root: url.deletingLastPathComponent(), table: nil) else {
                throw ConformanceError(
                    "\(path) is not a test: a SCION test has its script (\(url.deletingPathExtension().lastPathComponent).json) beside it, and a W3C test has a top-level <final id=\"pass\">; run it with `statechart run`"
                )
            }
            return [test]
        }
        if let table = W3CTable(folder: url) { return table.tests(root: url) }
        let tests = allCharts(under: url).compactMap { test(for: $0, root: url, table: nil) }
        guard !tests.isEmpty else {
            throw ConformanceError(
                "\(path) holds no test: no chart has a SCION script beside it or a top-level <final id=\"pass\">")
        }
        return tests
    }

    /// Whether a chart is a W3C test: it has a top-level `<final id="pass">`. A chart that cannot
    /// be read counts as one, so that the run reports why.
    static func isW3CTest(_ chart: URL) -> Bool {
        guard let document = try? SCXMLReader.read(contentsOf: chart).get() else { return true }
        return document.states.contains { $0.kind == .final && $0.id == "pass" }
    }

    static func allCharts(under folder: URL) -> [URL] {
        guard
            let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        else {
            return []
        }
        var charts: [URL] = []
        for case let file as URL in enumerator where file.pathExtension == "scxml" {
            charts.append(file.standardizedFileURL)
        }
        return charts.sorted { $0.path < $1.path }
    }

    static func relativeName(of file: URL, root: URL) -> String {
        let path = file.deletingPathExtension().path
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        return path.hasPrefix(prefix)
            ? String(path.dropFirst(prefix.count)) : file.deletingPathExtension().lastPathComponent
    }

    /// The test of a chart; `nil` for a chart that is not a test.
    static func test(for chart: URL, root: URL, table: W3CTable?) -> ConformanceTest? {
        let script = chart.deletingPathExtension().appendingPathExtension("json")
        let kind: ConformanceTest.Kind
        if FileManager.default.fileExists(atPath: script.path) {
            kind = .scion
        } else if isW3CTest(chart) {
            kind = .w3c
        } else {
            return nil
        }
        return ConformanceTest(name: relativeName(of: chart, root: root), kind: kind, charts: [chart], w3c: nil)
    }
}

/// The W3C suite's `categories.tsv`: per test, its files and what it needs.
struct W3CTable {
    struct Row {
        var info: ConformanceTest.W3CInfo
        var files: [String]
    }

    var rows: [Row]

    init?(folder: URL) {
        let file = folder.appendingPathComponent("categories.tsv")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        rows = []
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 5 else { continue }
            rows.append(
                Row(
                    info: ConformanceTest.W3CInfo(
                        number: fields[0], conformance: fields[1], manual: fields[2] == "true", category: fields[3],
                        features: fields.count > 5 ? fields[5].split(separator: ",").map(String.init) : []),
                    files: fields[4].split(separator: " ").map(String.init)))
        }
        // Tests the official manifest lists but the table does not: this copy has no file for them.
        let listed = Set(rows.map(\.info.number))
        for entry in Self.manifestEntries(folder: folder) where !listed.contains(entry.number) {
            rows.append(
                Row(
                    info: ConformanceTest.W3CInfo(
                        number: entry.number, conformance: entry.conformance, manual: entry.manual,
                        category: ConformanceTest.W3CInfo.absentCategory, features: []),
                    files: []))
        }
    }

    /// The tests of `manifest.xml`: number, conformance and whether a person must judge them.
    static func manifestEntries(folder: URL) -> [(number: String, conformance: String, manual: Bool)] {
        guard let text = try? String(contentsOf: folder.appendingPathComponent("manifest.xml"), encoding: .utf8)
        else { return [] }
        var entries: [(number: String, conformance: String, manual: Bool)] = []
        for line in text.split(separator: "\n") where line.contains("<test ") {
            func attribute(_ name: String) -> String? {
                guard let start = line.range(of: name + "=\"") else { return nil }
                let rest = line[start.upperBound...]
                return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
            }
            guard let number = attribute("id"), let conformance = attribute("conformance") else { continue }
            entries.append((number, conformance, attribute("manual") == "true"))
        }
        return entries
    }

    func tests(root: URL) -> [ConformanceTest] {
        rows.sorted { (Int($0.info.number) ?? 0, $0.info.number) < (Int($1.info.number) ?? 0, $1.info.number) }.map {
            row in
            // Files named testNNNsubM are documents that the test's chart invokes, not tests.
            let charts = row.files.filter { !$0.contains("sub") }.map {
                root.appendingPathComponent($0).standardizedFileURL
            }
            return ConformanceTest(name: "test\(row.info.number)", kind: .w3c, charts: charts, w3c: row.info)
        }
    }
}

/// A problem with the paths given to the runner.
public struct ConformanceError: Error, Sendable, CustomStringConvertible {
    /// A plain sentence.
    public var description: String

    init(_ description: String) { self.description = description }
}
