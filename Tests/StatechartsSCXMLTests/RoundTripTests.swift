import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting
import Testing

/// Writing a chart as SCXML and reading it back gives the same chart: on every chart of the suites.
@Suite(.enabled(if: SharedMaterial.isPresent, SharedMaterial.absent), .ownThread)
struct RoundTripTests {
    @Test("every chart of the suites reads back from its written form as the same document and the same chart")
    func suites() throws {
        var documents = 0
        var charts = 0
        for file in SharedMaterial.allCharts {
            guard let document = SCXMLReader.read(contentsOf: file).document else { continue }
            let written = SCXMLWriter.write(document)
            // Read as if from the same file, so that its src attributes resolve as the original's.
            let reread = try SCXMLReader.read(written, file: file.path).get()
            #expect(reread.placeless == document.placeless, "\(file.lastPathComponent): the document read back differs")
            #expect(SCXMLWriter.write(reread) == written, "\(file.lastPathComponent): writing is not a fixed point")
            documents += 1
            // Documents with <invoke> have no chart yet; their documents are compared above.
            guard let original = try? document.makeChart(dataModels: [StructureOnlyDataModel.self]) else { continue }
            let copy = try reread.makeChart(dataModels: [StructureOnlyDataModel.self])
            #expect(
                structure(of: original.statechart) == structure(of: copy.statechart),
                "\(file.lastPathComponent): the chart read back differs")
            charts += 1
        }
        #expect(documents == SharedMaterial.allCharts.count)
        #expect(charts >= 230)
        print("round trip: \(documents) documents, \(charts) charts")
    }
}
