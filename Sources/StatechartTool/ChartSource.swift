#if Tools
import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting

/// The chart a command works on: an SCXML file, or the bundled media player when none is given.
struct ChartSource {
    /// The chart.
    var chart: SCXMLChart
    /// How to name it in messages: the path, or the bundled file's path.
    var name: String
    /// Whether it is the bundled chart.
    var isBundled: Bool

    /// The data models its invoked documents may use: those of this build.
    var dataModels: [any SCXMLDataModel.Type] { BuiltDataModels.all }

    /// Loads `path`, or the bundled media player for `nil`.
    ///
    /// - Throws: ``CommandError`` with one line: the file does not exist, or the document's
    ///   problems at their line and column.
    static func load(_ path: String?, limits: SCXMLLimits = .default) throws -> ChartSource {
        guard let path else {
            do {
                let chart = try SCXMLChart.load(
                    BundledCharts.mediaPlayer, file: BundledCharts.mediaPlayerFile, dataModels: BuiltDataModels.all)
                return ChartSource(chart: chart, name: BundledCharts.mediaPlayerFile, isBundled: true)
            } catch {
                throw CommandError("the bundled chart cannot be read: \(error.description)")
            }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandError("no such file: \(path)")
        }
        guard !isDirectory.boolValue else { throw CommandError("\(path) is a folder; give an .scxml file") }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int,
            size > limits.documentSize
        {
            throw CommandError(
                "the document has \(size) bytes, more than the limit documentSize of \(limits.documentSize) bytes (--document-size raises it)",
                at: SourcePosition(file: path, line: 1, column: 1))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandError("\(path) cannot be read")
        }
        do {
            // Positions are reported against the path as given.
            return ChartSource(
                chart: try SCXMLChart.load(
                    data, file: path, dataModels: BuiltDataModels.all, maximumSize: limits.documentSize), name: path,
                isBundled: false)
        } catch {
            throw CommandError(error)
        }
    }

    /// Prints the reader's warnings on standard error.
    func printWarnings() {
        for warning in chart.warnings { printToStandardError("\(warning)") }
    }
}
#endif
