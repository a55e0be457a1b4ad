// Compiled with the trait ECMAScript only: without it, this module is empty and needs no JavaScriptCore.
#if ECMAScript
import CJavaScriptCore
import Statecharts
import StatechartsSCXML

extension ECMAScriptDataModel: Codable {
    /// One variable of an archive.
    enum ArchivedVariable: Codable, Equatable {
        /// A value JSON can hold.
        case json(String)
        /// A function, as its source text, made again when the archive is restored.
        case function(String)
        /// A DOM document or element (XML content), as its markup, parsed again when the archive
        /// is restored.
        case dom(markup: String, isDocument: Bool)
        /// `undefined`.
        case undefined
    }

    private enum CodingKeys: String, CodingKey {
        case session, variables, lastEvent
    }

    /// Restores a model: a new virtual machine with the archived variables and `_event`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when a variable's JSON or function source cannot
    ///   be read back.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let session = try container.decode(SCXMLSessionInfo.self, forKey: .session)
        self.init(session: session)
        let variables = try container.decode([String: ArchivedVariable].self, forKey: .variables)
        let location = SourcePosition(file: "archive", line: 1, column: 1)
        for (name, variable) in variables.sorted(by: { $0.key < $1.key }) {
            let value: JSValueRef?
            switch variable {
            case .json(let text): value = engine.parseJSON(text)
            case .function(let source): value = try? engine.evaluate("(" + source + "\n)", at: location)
            case .dom(let markup, let isDocument): value = engine.restoreDOM(markup: markup, isDocument: isDocument)
            case .undefined: value = JSValueMakeUndefined(engine.context)
            }
            guard let value else {
                throw DecodingError.dataCorruptedError(
                    forKey: .variables, in: container,
                    debugDescription: "the archived variable '\(name)' cannot be restored")
            }
            engine.setGlobal(name, value)
        }
        if let event = try container.decodeIfPresent(SCXMLEvent.self, forKey: .lastEvent) {
            bind(event)
        }
    }

    /// Archives the session, every variable (JSON, a function's source, or a DOM's markup) and the
    /// last event.
    ///
    /// - Throws: `EncodingError.invalidValue` for a variable JSON cannot hold, such as a cycle.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(session, forKey: .session)
        try container.encode(try archivedVariables(codingPath: container.codingPath), forKey: .variables)
        try container.encodeIfPresent(lastEvent, forKey: .lastEvent)
    }

    func archivedVariables(codingPath: [any CodingKey]) throws -> [String: ArchivedVariable] {
        let context = engine.context
        var variables: [String: ArchivedVariable] = [:]
        for name in engine.globalVariableNames() {
            let key = JavaScriptContext.makeString(name)
            defer { JSStringRelease(key) }
            guard let value = JSObjectGetProperty(context, engine.global, key, nil) else { continue }
            if JSValueIsUndefined(context, value) {
                variables[name] = .undefined
            } else if let object = JSValueToObject(context, value, nil), JSObjectIsFunction(context, object) {
                variables[name] = .function(engine.string(value))
            } else if let dom = engine.archivedDOM(value) {
                variables[name] = .dom(markup: dom.markup, isDocument: dom.isDocument)
            } else if let json = engine.json(value) {
                variables[name] = .json(json)
            } else {
                throw EncodingError.invalidValue(
                    name,
                    EncodingError.Context(
                        codingPath: codingPath,
                        debugDescription: "the variable '\(name)' cannot be archived: JSON cannot hold its value"))
            }
        }
        return variables
    }
}
#endif
