#if Inspector
import Foundation
import StatechartsSCXML

extension InspectorValue {
    /// The value as a document's event data; `nil` when it cannot be one.
    package var scxmlValue: SCXMLValue? {
        guard let data = try? JSONEncoder().encode(self) else { return nil }
        return SCXMLValue(json: String(decoding: data, as: UTF8.self))
    }
}

extension InspectorSnapshot {
    /// The timers and delayed events of a session's archive, soonest first.
    package static func pendingTimers(of archive: SCXMLSessionArchive) -> [PendingTimer] {
        archive.top.timers.map { record in
            let due = Double(record.deadline) / 1e9
            switch record.kind {
            case .timeout(let state, _, _): return PendingTimer(name: "timeout of \(state)", due: due, state: state)
            case .event(let event, let id): return PendingTimer(name: event.name, due: due, id: id)
            case .named(let name, let id): return PendingTimer(name: name, due: due, id: id)
            }
        }.sorted { $0.due < $1.due }
    }

    /// The data model's variables, as its archive holds them.
    package static func sessionData(of archive: SCXMLSessionArchive) -> InspectorValue {
        sessionData(ofContext: archive.top.context)
    }

    /// The data model's variables of a session's context, as the page shows them (see
    /// ``sessionData(of:)``).
    package static func sessionData(ofContext context: SCXMLContext) -> InspectorValue {
        guard let context = InspectorValue(encoding: context), let model = context["model"] else {
            return .null
        }
        if case .string(let globals)? = model["globals"],
            let tagged = try? JSONDecoder().decode(InspectorValue.self, from: Data(globals.utf8))
        {
            return readableTagged(tagged, depth: 0)
        }
        guard case .object(let variables)? = model["variables"] else { return model }
        return .object(variables.mapValues(readable))
    }

    /// A variable of an ECMAScript data model's archive of the older form, one by one, as the page
    /// shows it: JSON values as themselves, `undefined` as null, a function or a DOM node as its
    /// source text.
    static func readable(_ archived: InspectorValue) -> InspectorValue {
        guard case .object(let cases) = archived, cases.count == 1, let (kind, payload) = cases.first else {
            return archived
        }
        switch (kind, payload["_0"] ?? payload["markup"]) {
        case ("json", .string(let text)?):
            return (try? JSONDecoder().decode(InspectorValue.self, from: Data(text.utf8))) ?? .string(text)
        case ("function", .string(let text)?), ("dom", .string(let text)?): return .string(text)
        case ("undefined", _): return .null
        default: return archived
        }
    }

    /// A value of an archive's tagged form as the page shows it: JSON values as themselves, and
    /// what JSON cannot hold as a readable stand-in (`undefined` as null, NaN and BigInts as their
    /// text, a Map as its entries, a function or a DOM node as its source text).
    static func readableTagged(_ value: InspectorValue, depth: Int) -> InspectorValue {
        guard depth < 64 else { return .string("…") }
        switch value {
        case .array(let items): return .array(items.map { readableTagged($0, depth: depth + 1) })
        case .object(let fields):
            guard case .string(let tag)? = fields["$"] else { return value }
            func field(_ name: String) -> InspectorValue { readableTagged(fields[name] ?? .null, depth: depth + 1) }
            switch tag {
            case "undefined", "hole": return .null
            case "number", "bigint": return fields["v"].map { readableTagged($0, depth: depth + 1) } ?? .null
            case "function": return fields["source"] ?? .null
            case "dom": return fields["markup"] ?? .null
            case "ref": return .string("(the object shown above)")
            case "date": return .object(["Date": field("v")])
            case "regexp": return .object(["RegExp": fields["source"] ?? .null])
            case "set": return .object(["Set": field("values")])
            case "map": return .object(["Map": field("entries")])
            case "buffer": return .object(["ArrayBuffer": field("bytes")])
            case "typed":
                return .object([
                    (fields["type"].flatMap { if case .string(let name) = $0 { name } else { nil } } ?? "typed array"):
                        field("buffer")
                ])
            case "array": return field("items")
            case "object":
                guard case .array(let entries)? = fields["entries"] else { return .object([:]) }
                var object: [String: InspectorValue] = [:]
                for entry in entries {
                    guard case .array(let pair) = entry, pair.count == 2, case .string(let key) = pair[0] else {
                        continue
                    }
                    object[key] = readableTagged(pair[1], depth: depth + 1)
                }
                return .object(object)
            default: return value
            }
        default: return value
        }
    }
}
#endif
