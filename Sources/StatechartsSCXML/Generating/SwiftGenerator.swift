import Foundation
import Statecharts

/// Writes Swift for an SCXML document: its states and events as enums, and its chart written with
/// the engine's own elements, so that it runs on the compiled tables at `StateMachine` speed,
/// with no interpreter, and the compiler checks every state and event the code names.
///
/// ```swift
/// let generated = try SwiftGenerator().generate(contentsOf: URL(fileURLWithPath: "media-player.scxml"))
/// try generated.source.write(toFile: "MediaPlayer.swift", atomically: true, encoding: .utf8)
/// ```
///
/// The output is a namespace enum (named after the document's `name`, else its file, in
/// UpperCamelCase) that holds:
/// - `enum State: String, Hashable, Sendable, CaseIterable`: a case per state id, whose raw value
///   is the id;
/// - `enum Event: String, StatechartEvent, CaseIterable`: a case per event name the document
///   handles or sends (descriptors without wildcards, prefixes and platform events), whose raw
///   value is the name;
/// - `static func chart() throws -> Statechart<State, Event, Void>`, for a document that runs on
///   the null data model (below).
///
/// Ids become lowerCamelCase cases (`media-player` → `mediaPlayer`, `done.state.x` →
/// `doneStateX`); two ids with the same case name are reported, with both positions.
///
/// A document that runs on SCXML's null data model (conditions are `In(id)`, values are string
/// literals, as in every document without variables) becomes a compiled chart: its executable
/// content becomes the engine's actions (`<raise>` raises, `<send>` sends to the machine with its
/// delay and id, `<cancel>` cancels, `<log>` logs, `<if>` branches on `In()`). It runs alone, as a
/// session without a parent: a `<send>` to another session raises `error.communication`, as it
/// would in a session that cannot reach it.
///
/// A document whose expressions need a data model (ECMAScript), or that invokes other documents,
/// becomes, beside the same enums,
/// `static var document`, the document as Swift values (every expression and script as written,
/// with its position in the document), and `static func chart(dataModels:) throws -> SCXMLChart`:
/// it runs in an ``SCXMLSession`` with its scripts on the data model the app gives, with no XML
/// read when the app runs, and ``SCXMLSession/send(_:data:)`` and ``SCXMLSession/isActive(_:)``
/// take the generated cases. Everything the generator refuses is reported with the document's
/// file, line and column.
public struct SwiftGenerator: Sendable {
    /// The access level of the generated declarations.
    public enum Access: String, Sendable, Hashable, CaseIterable {
        /// Visible in the module that holds the generated file (the default).
        case `internal`
        /// Visible to modules that import the one that holds it.
        case `public`
    }

    /// The name of the namespace enum; `nil` to name it after the document.
    public var typeName: String?
    /// The access level of the namespace, its enums and `chart()`.
    public var access: Access
    /// Data models to check the expressions of a document that needs one (such as
    /// `ECMAScriptDataModel`); without the document's, its structure is checked and its
    /// expressions are checked when the app builds its chart.
    public var dataModels: [any SCXMLDataModel.Type]

    /// A generator.
    ///
    /// - Parameters:
    ///   - typeName: The name of the namespace enum; `nil` to take the document's `name`, else
    ///     its file name, in UpperCamelCase.
    ///   - access: The access level of what is generated.
    ///   - dataModels: Data models to check the expressions of a document that needs one.
    public init(typeName: String? = nil, access: Access = .internal, dataModels: [any SCXMLDataModel.Type] = []) {
        self.typeName = typeName
        self.access = access
        self.dataModels = dataModels
    }

    /// Reads the document at `url` and writes its Swift.
    ///
    /// - Throws: ``SCXMLError`` with every problem, each with the document's file, line and
    ///   column: what the document gets wrong, and what a generated chart cannot do.
    public func generate(contentsOf url: URL) throws(SCXMLError) -> GeneratedSwift {
        try generate(SCXMLReader.read(contentsOf: url), file: url.path)
    }

    /// Reads a document from its text and writes its Swift.
    ///
    /// - Parameters:
    ///   - text: The document.
    ///   - file: Its file name: diagnostics give it, the generated file's header names its last
    ///     component, and a document without `name` is named after it.
    /// - Throws: ``SCXMLError`` with every problem, as ``generate(contentsOf:)`` does.
    public func generate(_ text: String, file: String) throws(SCXMLError) -> GeneratedSwift {
        try generate(SCXMLReader.read(text, file: file), file: file)
    }

    /// Whether a state of the document has an `<invoke>`.
    static func invokes(_ document: SCXMLDocument) -> Bool {
        func visit(_ node: SCXMLNode) -> Bool { !node.invocations.isEmpty || node.children.contains(where: visit) }
        return document.states.contains(where: visit)
    }

    func generate(_ result: SCXMLReadResult, file: String) throws(SCXMLError) -> GeneratedSwift {
        let document = try result.get()
        let requested = document.dataModel ?? SCXMLDocument.defaultDataModel
        let form: SwiftChartWriter.Form
        let built: SCXMLDocument
        var warnings = result.diagnostics.filter { $0.severity != .error }
        do {
            let chart = try document.makeChart(dataModels: [NullDataModel.self])
            // A chart that invokes others needs their sessions: it stays a document, run by one.
            form = Self.invokes(chart.document) ? .document(dataModel: requested) : .compiled
            built = chart.document
            warnings += chart.warnings
        } catch let nullModelError {
            guard requested != "null" else {
                throw SCXMLError(diagnostics: result.diagnostics + nullModelError.diagnostics)
            }
            // A document of another data model: its structure is checked here, its expressions by
            // the data models given, and by the one the app gives when it builds the chart.
            do {
                let chart = try document.makeChart(dataModels: dataModels)
                built = chart.document
                warnings += chart.warnings
            } catch {
                let available = dataModels.contains { $0.names.contains(requested) }
                guard error.isUnsupportedOnly, !available else {
                    throw SCXMLError(diagnostics: result.diagnostics + error.diagnostics)
                }
                let (resolved, problems) = document.resolvingSources()
                if problems.contains(where: { $0.severity == .error }) {
                    throw SCXMLError(diagnostics: result.diagnostics + problems)
                }
                built = resolved
            }
            form = .document(dataModel: requested)
        }
        let fileName = URL(fileURLWithPath: file).lastPathComponent
        let name: String
        if let typeName {
            guard SwiftNaming.isIdentifier(typeName) else {
                throw SCXMLError(diagnostics: [
                    SCXMLDiagnostic(
                        .error, "the type name '\(typeName)' is not a Swift identifier", at: document.location,
                        kind: .unsupported)
                ])
            }
            name = typeName
        } else {
            let base = document.name ?? URL(fileURLWithPath: fileName).deletingPathExtension().lastPathComponent
            guard let derived = SwiftNaming.typeName(base), SwiftNaming.isIdentifier(derived) else {
                throw SCXMLError(diagnostics: [
                    SCXMLDiagnostic(
                        .error, "no Swift type name can be made of '\(base)'; give one with --name",
                        at: document.location, kind: .unsupported)
                ])
            }
            name = derived
        }
        var writer = SwiftChartWriter(
            document: built, form: form, typeName: name, access: access, fileName: fileName)
        return try writer.write(warnings: warnings)
    }
}
