// Compiled with the trait ECMAScript only.
#if ECMAScript
import Foundation
import Statecharts
import StatechartsECMAScript
import StatechartsSCXML
import Testing

/// Runs documents on the ECMAScript data model, recording what they log.
struct Session {
    var interpreter: SCXMLSession
    let logs: Locked<[String]>

    /// A session of a document written inline; `body` is the content of `<scxml>`.
    init(
        _ body: String, scriptTimeLimit: Duration? = .milliseconds(200), file: String = "<string>",
        attributes: String = ""
    ) throws {
        let text = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" \(attributes)>
            \(body)
            </scxml>
            """
        let chart = try SCXMLChart.load(text, file: file, dataModels: ECMAScriptDataModel.withBuiltIns)
        try self.init(chart: chart, scriptTimeLimit: scriptTimeLimit)
    }

    /// A session of a fixture document.
    init(fixture name: String, scriptTimeLimit: Duration? = .milliseconds(200)) throws {
        let chart = try SCXMLChart.load(
            contentsOf: Fixtures.url(name), dataModels: ECMAScriptDataModel.withBuiltIns)
        try self.init(chart: chart, scriptTimeLimit: scriptTimeLimit)
    }

    init(chart: SCXMLChart, scriptTimeLimit: Duration?) throws {
        let logs = Locked<[String]>([])
        self.logs = logs
        interpreter = SCXMLSession(
            chart: chart,
            options: .init(
                sessionID: "test", limits: SCXMLLimits(scriptTime: scriptTimeLimit),
                log: { record in logs.withLock { $0.append("\(record)") } }))
        try interpreter.start()
    }

    var states: Set<String> { Set(interpreter.machine.activeStates) }
    var log: [String] { logs.withLock { $0 } }

    mutating func send(_ name: String, data: SCXMLValue? = nil) throws {
        try interpreter.send(SCXMLEvent(name, data: data))
    }
}

enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }
}
#endif
