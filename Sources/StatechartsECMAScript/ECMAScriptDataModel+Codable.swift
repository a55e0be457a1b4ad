// Compiled with the trait ECMAScript only: without it, this module is empty and needs no JavaScriptCore.
#if ECMAScript
import CJavaScriptCore
import Statecharts
import StatechartsSCXML

extension ECMAScriptDataModel: Codable {
    /// One variable of an archive written before `globals`, read as it was.
    enum ArchivedVariable: Codable, Equatable {
        /// A value JSON can hold.
        case json(String)
        /// A function, as its source text.
        case function(String)
        /// A DOM document or element, as its markup.
        case dom(markup: String, isDocument: Bool)
        /// `undefined`.
        case undefined
    }

    enum CodingKeys: String, CodingKey {
        /// The session's information.
        case session
        /// Every variable, in one archive text (`JavaScriptContext.archive(_:named:)`), so that
        /// values the variables share stay shared.
        case globals
        /// The variables one by one, as archives before `globals` held them.
        case variables
        /// The last event, which `_event` is.
        case lastEvent
    }

    /// Restores a model: a new virtual machine with the archived variables and `_event`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` saying which variable cannot be read back.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let session = try container.decode(SCXMLSessionInfo.self, forKey: .session)
        self.init(session: session)
        if let globals = try container.decodeIfPresent(String.self, forKey: .globals) {
            let restored: JSValueRef
            do {
                restored = try engine.restoreArchived(globals, named: "the variables")
            } catch {
                throw DecodingError.dataCorruptedError(
                    forKey: .globals, in: container,
                    debugDescription: "the archived variables cannot be restored: \(error.reason)")
            }
            for (name, value) in engine.ownProperties(of: restored) { engine.setGlobal(name, value) }
        } else {
            let variables = try container.decode([String: ArchivedVariable].self, forKey: .variables)
            try restore(variables, container: container)
        }
        if let event = try container.decodeIfPresent(SCXMLEvent.self, forKey: .lastEvent) {
            bind(event)
        }
    }

    /// The variables of an archive written before `globals`.
    private mutating func restore(
        _ variables: [String: ArchivedVariable], container: KeyedDecodingContainer<CodingKeys>
    ) throws {
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
    }

    /// Archives the session, every variable in one text (see
    /// `JavaScriptContext.archive(_:named:)`) and the last event.
    ///
    /// - Throws: `EncodingError.invalidValue` naming the variable, and where in it, a value is
    ///   that no archive can hold (a symbol, a WeakMap, an instance of a class): never a silent
    ///   change.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(session, forKey: .session)
        try container.encode(try archivedGlobals(codingPath: container.codingPath), forKey: .globals)
        try container.encodeIfPresent(lastEvent, forKey: .lastEvent)
    }

    func archivedGlobals(codingPath: [any CodingKey]) throws -> String {
        let context = engine.context
        guard let globals = JSObjectMake(context, nil, nil) else {
            throw EncodingError.invalidValue(
                "", EncodingError.Context(codingPath: codingPath, debugDescription: "the variables cannot be gathered"))
        }
        for name in engine.globalVariableNames() {
            let key = JavaScriptContext.makeString(name)
            defer { JSStringRelease(key) }
            guard let value = JSObjectGetProperty(context, engine.global, key, nil) else { continue }
            JSObjectSetProperty(context, globals, key, value, JSPropertyAttributes(kJSPropertyAttributeNone), nil)
        }
        do {
            return try engine.archive(globals, named: "")
        } catch {
            // The reason starts with the path of the value: the variable's name, then `.` or `[`.
            let name = String(
                error.reason.prefix { character in character != "." && character != "[" && character != " " })
            throw EncodingError.invalidValue(
                name,
                EncodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "the variable '\(name)' cannot be archived: \(error.reason)"))
        }
    }
}
#endif
