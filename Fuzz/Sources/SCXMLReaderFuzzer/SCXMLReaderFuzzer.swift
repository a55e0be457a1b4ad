import Foundation
import FuzzDriver
import Statecharts
import StatechartsSCXML

/// One input: any bytes, read as an SCXML document. Whatever the bytes, reading must end in a chart
/// or in diagnostics; a chart must write back to a document that reads again, and must run a few
/// steps in a session, be archived and restored; nothing may crash, trap or hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    guard let document = SCXMLReader.read(data, file: "fuzz.scxml").document, let chart = try? document.makeChart()
    else { return 0 }
    let written = SCXMLWriter.write(document)
    guard SCXMLReader.read(written, file: "written.scxml").document != nil else {
        fatalError("a document written by SCXMLWriter does not read back:\n\(written)")
    }
    var session = SCXMLSession(chart: chart, options: .init(sessionID: "fuzz", limits: SCXMLLimits(microsteps: 1_000)))
    _ = chart.statechart.diagnostics()
    _ = chart.statechart.mermaid()
    _ = chart.statechart.dot()
    do {
        try session.start()
        for name in chart.statechart.eventNames.prefix(8) where session.status == .running {
            try session.send(SCXMLEvent(name))
            try session.advance(by: .seconds(1))
        }
        if let archive = try? session.archive() {
            _ = try? SCXMLSession(
                chart: chart, restoring: archive, options: .init(limits: SCXMLLimits(microsteps: 1_000)))
        }
    } catch {
        // Runaway steps and rejected events are errors the machine reports; they are fine here.
    }
    return 0
}

/// The entry point SwiftPM links an executable through; it hands over to libFuzzer's driver.
@_cdecl("SCXMLReaderFuzzer_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzz)
}
