import Foundation
import Statecharts

/// A chart made from an SCXML document, with the data model that runs it.
///
/// Run it in an ``SCXMLSession``: the session runs the document's machine together with the
/// sessions it invokes and delivers every event they send.
public struct SCXMLChart: Sendable {
    /// The chart.
    public let statechart: Statechart<String, SCXMLEvent, SCXMLContext>
    /// The document it was made from.
    public let document: SCXMLDocument
    /// The data model type each machine gets an instance of.
    public let dataModel: any SCXMLDataModel.Type
    /// Warnings found while reading and building.
    public let warnings: [SCXMLDiagnostic]

    /// A machine of one session of the chart, not started yet: for ``SCXMLSession``, which runs
    /// it and is the external queue of every session, so that what it sends and invokes is done.
    func makeMachine(info: SCXMLSessionInfo, unhandledEvents: UnhandledEventPolicy = .ignore) -> SCXMLSession.Machine {
        let context = SCXMLContext(model: dataModel.init(session: info), info: info)
        var machine = statechart.makeMachine(context: context, unhandledEvents: unhandledEvents)
        machine.pausesAtEffects = true
        return machine
    }

    /// A decoder for archives of this chart's sessions (``SCXMLSessionArchive``): a JSON decoder
    /// that knows its data model and `dataModels`, the ones the documents it invokes may use.
    public func archiveDecoder(dataModels: [any SCXMLDataModel.Type] = SCXMLDocument.builtInDataModels) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.userInfo[SCXMLContext.dataModelsKey] = dataModels + [dataModel]
        return decoder
    }
}

extension SCXMLDocument {
    /// The data model types this module provides.
    public static let builtInDataModels: [any SCXMLDataModel.Type] = [NullDataModel.self]

    /// The `datamodel` a document uses when it names none: ECMAScript, as SCION and most engines do.
    public static let defaultDataModel = "ecmascript"

    /// Builds the chart of this document.
    ///
    /// The data model is the one of `dataModels` that implements the document's `datamodel`
    /// attribute. A document that asks for ECMAScript when no ECMAScript model is given runs on
    /// ``NullDataModel`` if every expression it uses means the same there (`In()` tests and string
    /// literals); any other expression is reported as needing the ECMAScript data model.
    ///
    /// - Throws: ``SCXMLError`` with every problem: expressions or elements the data model cannot
    ///   run (``SCXMLDiagnostic/Kind/unsupported``) and the chart's own problems, such as unknown
    ///   targets (``SCXMLDiagnostic/Kind/document``).
    public func makeChart(dataModels: [any SCXMLDataModel.Type] = builtInDataModels) throws(SCXMLError) -> SCXMLChart {
        var builder = SCXMLChartBuilder(document: self, dataModels: dataModels)
        return try builder.build()
    }
}

extension SCXMLChart {
    /// Reads the document at `url` and builds its chart.
    ///
    /// - Throws: ``SCXMLError`` with every problem of the document and of its chart.
    public static func load(
        contentsOf url: URL, dataModels: [any SCXMLDataModel.Type] = SCXMLDocument.builtInDataModels
    ) throws(SCXMLError) -> SCXMLChart {
        try load(SCXMLReader.read(contentsOf: url), dataModels: dataModels)
    }

    /// Reads a document from its text and builds its chart.
    ///
    /// - Throws: ``SCXMLError`` with every problem of the document and of its chart.
    public static func load(
        _ text: String, file: String = "<string>",
        dataModels: [any SCXMLDataModel.Type] = SCXMLDocument.builtInDataModels
    ) throws(SCXMLError) -> SCXMLChart {
        try load(SCXMLReader.read(text, file: file), dataModels: dataModels)
    }

    /// Reads a document from its bytes and builds its chart.
    ///
    /// - Throws: ``SCXMLError`` with every problem of the document and of its chart.
    /// A document larger than `maximumSize` bytes (`SCXMLLimits.documentSize`) is refused unread.
    public static func load(
        _ data: Data, file: String, dataModels: [any SCXMLDataModel.Type] = SCXMLDocument.builtInDataModels,
        maximumSize: Int = SCXMLLimits.default.documentSize
    ) throws(SCXMLError) -> SCXMLChart {
        try load(SCXMLReader.read(data, file: file, maximumSize: maximumSize), dataModels: dataModels)
    }

    static func load(_ result: SCXMLReadResult, dataModels: [any SCXMLDataModel.Type]) throws(SCXMLError) -> SCXMLChart
    {
        let document = try result.get()
        do {
            var chart = try document.makeChart(dataModels: dataModels)
            chart = SCXMLChart(
                statechart: chart.statechart, document: chart.document, dataModel: chart.dataModel,
                warnings: result.diagnostics + chart.warnings)
            return chart
        } catch {
            throw SCXMLError(diagnostics: result.diagnostics + error.diagnostics)
        }
    }
}
