import Foundation
import Statecharts

/// Reads an XState v5 machine configuration, as Stately Studio exports it or as
/// `JSON.stringify(machine.config)` gives it, and makes the SCXML document of the same machine.
///
/// ```swift
/// let json = try String(contentsOf: url, encoding: .utf8)
/// let document = try XStateImporter.document(fromJSON: json, file: url.path)
/// print(SCXMLWriter.write(document))
/// ```
///
/// The mapping:
/// - The machine's `id` is the document's `name`. Each state's SCXML `id` is XState's own id of
///   it, the machine's id and the path of keys joined by dots (`light.green`), or the `id` it
///   gives. Targets (`sibling`, `.child`, `#id`) are resolved as XState resolves them.
/// - `type: "parallel"`, `"final"` and `"history"` (with `history: "deep"` and a default
///   `target`) are `<parallel>`, `<final>` and `<history>`; `initial` is the `initial` attribute.
/// - `on` is transitions: XState takes an event's exact transitions before its wildcard ones
///   (`mouse.*`, `*`), longest first, so they are written in that order. A transition without a
///   target is targetless; `reenter: true` is `type="external"`, and otherwise `type="internal"`,
///   XState's default. `always` is eventless transitions.
/// - `after` is a delayed `<send>` on entry, a `<cancel>` on exit and a transition on the sent
///   event, named as XState names it (`xstate.after.1000.light.green`). A named delay takes its
///   duration from ``Options/delays``, since a JSON export has no code; without one it is an error.
/// - Named actions (`entry`, `exit`, a transition's `actions`) are `<sc:action name="…"/>`
///   elements of the project's namespace (``SCXMLExtensions/namespace``), with `params` as JSON
///   text. A named guard is the transition's `sc:guard` attribute (and `sc:guard-params`). The
///   reader keeps both and the writer writes them back; an engine that does not know them runs no
///   action for them.
/// - `invoke` is `<invoke type="SRC">` with its `id` (XState's `STATE:invocation[N]` when none is
///   given) and its `input` as JSON `<content>`: the Swift invoker registered for the type runs it.
///   `onDone` is a transition on `done.invoke.ID`, `onError` one on `error.execution`.
/// - A state's `onDone` is a transition on `done.state.ID`; a final state's `output` is its done
///   data, as JSON `<content>`.
/// - `tags`, `meta` and `description` are the attributes `sc:tags`, `sc:meta` (JSON) and
///   `sc:description`; the machine's `context` is an `<sc:context>` element holding its JSON.
/// - A machine with behaviour of its own (`on`, `after`, `always`, `entry`, `exit`, `invoke`,
///   `output`, or `type: "parallel"`) is written as one top state with the machine's id, which
///   a final state `ID.done` follows when the machine is done, carrying its `output`: SCXML ends
///   only in a final state at the top.
///
/// Anything a JSON export can hold that SCXML here cannot express is an error at its JSON path and
/// position: an action or guard that is not a name (a function, which JSON writes as `null`), an
/// actor that is not named, an unknown key.
public enum XStateImporter {
    /// How to import.
    public struct Options: Sendable, Hashable {
        /// The durations of the named delays of `after`, by name.
        public var delays: [String: Duration]

        /// Options; no named delays by default.
        public init(delays: [String: Duration] = [:]) {
            self.delays = delays
        }
    }

    /// What an import made: the document, and what was noticed on the way.
    public struct Imported: Sendable {
        /// The SCXML document.
        public var document: SCXMLDocument
        /// Warnings: what the document does that the configuration left to a default, such as
        /// a state with children and no `initial`.
        public var warnings: [SCXMLDiagnostic]
    }

    /// The SCXML document of the machine configuration in `text`.
    ///
    /// - Parameters:
    ///   - text: The JSON text.
    ///   - file: The file's path, for the positions of problems.
    ///   - options: Named delays.
    /// - Throws: ``SCXMLError`` with every problem found, each at its line and column and naming
    ///   its JSON path (`$.states.green.on.TIMER`), in the order of the file.
    public static func document(
        fromJSON text: String, file: String = "machine.json", options: Options = Options()
    ) throws(SCXMLError) -> SCXMLDocument {
        try read(fromJSON: text, file: file, options: options).document
    }

    /// The SCXML document of the machine configuration in `text`, with the warnings.
    ///
    /// - Throws: ``SCXMLError`` with every problem found, as ``document(fromJSON:file:options:)``.
    public static func read(
        fromJSON text: String, file: String = "machine.json", options: Options = Options()
    ) throws(SCXMLError) -> Imported {
        let root = try JSONReader.read(text, file: file)
        var mapping = XStateMapping(options: options, file: file)
        let document = mapping.document(from: root)
        // In the order of the file, as the SCXML reader reports them.
        let ordered = mapping.diagnostics.enumerated().sorted { first, second in
            let (a, b) = (first.element.location, second.element.location)
            return (a.line, a.column, first.offset) < (b.line, b.column, second.offset)
        }.map(\.element)
        if ordered.contains(where: { $0.severity == .error }) { throw SCXMLError(diagnostics: ordered) }
        return Imported(document: document, warnings: ordered)
    }

    /// The SCXML document of the machine configuration in the file at `url`; a file larger than
    /// `maximumSize` bytes is refused unread.
    public static func document(
        contentsOf url: URL, options: Options = Options(), maximumSize: Int = SCXMLLimits.default.documentSize
    ) throws(SCXMLError) -> SCXMLDocument {
        try read(contentsOf: url, options: options, maximumSize: maximumSize).document
    }

    /// The SCXML document of the machine configuration in the file at `url`, with the warnings; a
    /// file larger than `maximumSize` bytes is refused unread.
    public static func read(
        contentsOf url: URL, options: Options = Options(), maximumSize: Int = SCXMLLimits.default.documentSize
    ) throws(SCXMLError) -> Imported {
        let place = SourcePosition(file: url.path, line: 1, column: 1)
        let size = (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        guard size <= maximumSize else {
            throw SCXMLError(diagnostics: [
                SCXMLDiagnostic(.error, "the file has \(size) bytes, more than the \(maximumSize) read", at: place)
            ])
        }
        guard let data = try? Data(contentsOf: url) else {
            throw SCXMLError(diagnostics: [SCXMLDiagnostic(.error, "the file cannot be read", at: place)])
        }
        guard data.count <= maximumSize else {
            throw SCXMLError(diagnostics: [
                SCXMLDiagnostic(.error, "the file has more than the \(maximumSize) bytes read", at: place)
            ])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SCXMLError(diagnostics: [SCXMLDiagnostic(.error, "the file is not UTF-8 text", at: place)])
        }
        return try read(fromJSON: text, file: url.path, options: options)
    }
}
