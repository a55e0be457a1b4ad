import Foundation
import Statecharts

/// A data model as a value: what a session's archive holds in place of the live model.
///
/// A data model may live outside Swift's values: the ECMAScript data model's variables are in a
/// JavaScript context, which every copy of the model shares. An archive that held the model
/// itself would share it with the session it was taken from, and a later step of that session
/// would change the archive: the repl's `:undo` and the inspector's "resume from step" would
/// restore the states but not the data. ``SCXMLSession/archive()`` therefore freezes each model
/// into its encoded form, and ``SCXMLSession/init(chart:restoring:options:)`` makes a new live
/// model from it; an archive decoded from a file holds the same form. Nothing in an archive is
/// shared with a running session.
///
/// It conforms to ``SCXMLDataModel`` only to stand in the context's `model`: it evaluates
/// nothing, and each evaluation throws.
struct ArchivedDataModel: SCXMLDataModel {
    static var names: Set<String> { [] }

    static func problem(with expression: SCXMLExpression, as use: SCXMLExpressionUse) -> String? {
        "the data model of an archive evaluates nothing"
    }

    static func problem(with feature: SCXMLFeature) -> String? { "the data model of an archive runs nothing" }

    /// The name of the data model archived (the first of its `names`).
    let dataModel: String
    /// The model as its `Encodable` writes it, as JSON.
    let encoded: Data

    /// The model frozen.
    ///
    /// - Throws: What the model's encoding throws: the ECMAScript data model names a variable it
    ///   cannot keep.
    init(freezing model: any SCXMLDataModel) throws {
        if let archived = model as? ArchivedDataModel {
            self = archived
            return
        }
        dataModel = type(of: model).names.sorted().first ?? ""
        encoded = try JSONEncoder().encode(model)
    }

    init(dataModel: String, encoded: Data) {
        self.dataModel = dataModel
        self.encoded = encoded
    }

    /// A live model again: decoded with the type among `dataModels` that has the archived name.
    ///
    /// - Throws: `DecodingError` when no type has the name, or the model cannot be read back.
    func thawed(with dataModels: [any SCXMLDataModel.Type]) throws -> any SCXMLDataModel {
        guard let type = dataModels.first(where: { $0.names.contains(dataModel) }) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [], debugDescription: "the data model '\(dataModel)' is not available"))
        }
        return try Self.decode(type, from: encoded)
    }

    private static func decode<Model: SCXMLDataModel>(_ type: Model.Type, from data: Data) throws -> Model {
        try JSONDecoder().decode(Model.self, from: data)
    }

    // MARK: - Codable: the model's own JSON, as it is

    init(from decoder: any Decoder) throws {
        dataModel = ""
        encoded = try JSONEncoder().encode(try ArchivedJSON(from: decoder))
    }

    func encode(to encoder: any Encoder) throws {
        try JSONDecoder().decode(ArchivedJSON.self, from: encoded).encode(to: encoder)
    }

    // MARK: - SCXMLDataModel: nothing runs

    struct Frozen: Error, CustomStringConvertible {
        var description: String { "the data model of an archive runs nothing: restore the session first" }
    }

    init(session: SCXMLSessionInfo) {
        dataModel = ""
        encoded = Data("null".utf8)
    }

    mutating func bind(_ event: SCXMLEvent) {}

    mutating func condition(_ expression: SCXMLExpression, isActive: (String) -> Bool) throws -> Bool {
        throw Frozen()
    }

    mutating func value(_ expression: SCXMLExpression, isActive: (String) -> Bool) throws -> SCXMLValue {
        throw Frozen()
    }

    mutating func declare(_ data: SCXMLData) throws { throw Frozen() }

    mutating func initialize(_ data: SCXMLData, isActive: (String) -> Bool) throws { throw Frozen() }

    mutating func assign(
        to location: SCXMLExpression, expression: SCXMLExpression?, content: SCXMLInlineContent?,
        isActive: (String) -> Bool
    ) throws { throw Frozen() }

    mutating func store(_ value: SCXMLValue, in location: String, at sourceLocation: SourcePosition) throws {
        throw Frozen()
    }

    mutating func load(_ location: String, at sourceLocation: SourcePosition) throws -> SCXMLValue {
        throw Frozen()
    }

    mutating func run(_ script: SCXMLScript, isActive: (String) -> Bool) throws { throw Frozen() }

    mutating func items(of array: SCXMLExpression, isActive: (String) -> Bool) throws -> [SCXMLValue] {
        throw Frozen()
    }
}

/// Any JSON value, read and written exactly: integers as integers (`Int64`, or `UInt64` above it),
/// other numbers as the `Double` they are.
enum ArchivedJSON: Codable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case number(Double)
    case string(String)
    case array([ArchivedJSON])
    case object([String: ArchivedJSON])

    init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var object: [String: ArchivedJSON] = [:]
            for key in keyed.allKeys { object[key.stringValue] = try keyed.decode(ArchivedJSON.self, forKey: key) }
            self = .object(object)
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var array: [ArchivedJSON] = []
            while !unkeyed.isAtEnd { array.append(try unkeyed.decode(ArchivedJSON.self)) }
            self = .array(array)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? single.decode(UInt64.self) {
            self = .unsigned(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let object):
            var keyed = encoder.container(keyedBy: AnyKey.self)
            for (key, value) in object { try keyed.encode(value, forKey: AnyKey(key)) }
        case .array(let array):
            var unkeyed = encoder.unkeyedContainer()
            for value in array { try unkeyed.encode(value) }
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .integer(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .unsigned(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        }
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
