import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting
import Testing

/// `SCXMLEvent` keeps its rarely used fields in a shared box: copies stay independent, equality and
/// hashing go field by field, and its JSON is what the event's synthesized `Codable` wrote, so
/// archives and journals written before read back the same. The cascade of a call is bound to
/// the thread, and calls nest.
@Suite struct EventStorageTests {
    /// The event as it was stored before: every field in the value, `Codable` synthesized.
    struct StoredEvent: Codable, Equatable {
        var name: String
        var type: SCXMLEvent.EventType
        var sendID: String?
        var origin: String?
        var originType: String?
        var invokeID: String?
        var data: SCXMLValue?
        var raw: String?

        init(_ event: SCXMLEvent) {
            (name, type, sendID, origin, originType) = (
                event.name, event.type, event.sendID, event.origin, event.originType
            )
            (invokeID, data, raw) = (event.invokeID, event.data, event.raw)
        }
    }

    /// Events with every combination of present and absent fields, drawn from a fixed seed.
    static func events(count: Int) -> [SCXMLEvent] {
        var generator = SplitMix64(seed: 0x5C8E_1E57)
        func maybe(_ text: String) -> String? { generator.next() % 2 == 0 ? nil : "\(text)-\(generator.next() % 5)" }
        return (0..<count).map { index in
            let data: SCXMLValue? =
                switch generator.next() % 4 {
                case 0: nil
                case 1: .number(Double(index) + 0.1)
                case 2: .object(["a": .string("ü\u{0}\""), "b": .array([.bool(true), .null])])
                default: .string("")
                }
            let types: [SCXMLEvent.EventType] = [.platform, .internal, .external]
            return SCXMLEvent(
                "e.\(index % 7)", data: data, type: types[Int(generator.next() % 3)], sendID: maybe("s"),
                origin: maybe("#_scxml_o"), originType: maybe("http://www.w3.org/TR/scxml/#SCXMLEventProcessor"),
                invokeID: maybe("i"), raw: maybe("raw"))
        }
    }

    @Test("the JSON is the synthesized coding's, both ways, for every combination of fields")
    func codingUnchanged() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for event in Self.events(count: 300) {
            let now = try encoder.encode(event)
            let before = try encoder.encode(StoredEvent(event))
            #expect(now == before)
            #expect(try JSONDecoder().decode(SCXMLEvent.self, from: before) == event)
            #expect(try JSONDecoder().decode(StoredEvent.self, from: now) == StoredEvent(event))
        }
        // A field written as null reads as absent, as the synthesized decoder read it.
        let explicitNull = Data(#"{"name":"n","type":"external","sendID":null}"#.utf8)
        #expect(try JSONDecoder().decode(SCXMLEvent.self, from: explicitNull) == SCXMLEvent("n"))
        // Without its type, an event does not decode.
        let withoutType = Data(#"{"name":"n"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SCXMLEvent.self, from: withoutType) }
    }

    @Test("equality and hashing compare the fields, not the boxes that hold them")
    func equalityByField() {
        let events = Self.events(count: 200)
        for (left, right) in Array(zip(events, events.dropFirst())) + Array(zip(events, events)) {
            let same = StoredEvent(left) == StoredEvent(right)
            #expect((left == right) == same)
            if same { #expect(left.hashValue == right.hashValue) }
        }
        // Built apart, with the same fields: equal, in a set once.
        let one = SCXMLEvent("done", data: .number(1), sendID: "s")
        var other = SCXMLEvent("done")
        other.data = .number(1)
        other.sendID = "s"
        #expect(one == other)
        #expect(Set([one, other]).count == 1)
        // Fields set and then cleared are the same as never set.
        var cleared = SCXMLEvent("x", sendID: "s", raw: "r")
        cleared.sendID = nil
        cleared.raw = nil
        #expect(cleared == SCXMLEvent("x"))
    }

    @Test("a copy that changes a field leaves the original as it was")
    func copiesAreIndependent() {
        let original = SCXMLEvent("e", data: .string("d"), sendID: "s", origin: "o", invokeID: "i")
        var copy = original
        copy.invokeID = "j"
        copy.data = nil
        copy.type = .internal
        #expect(original.invokeID == "i" && original.data == .string("d") && original.type == .external)
        #expect(copy.invokeID == "j" && copy.data == nil && copy.sendID == "s" && copy.origin == "o")
    }

    @Test("the cascade is bound for the call on its thread, nests, and is not seen by other threads")
    func cascadeBinding() throws {
        #expect(SCXMLCascade.current == nil)
        let outer = SCXMLCascade(limits: SCXMLLimits())
        let inner = SCXMLCascade(limits: SCXMLLimits())
        let seenElsewhere = try SCXMLCascade.withCurrent(outer) { () throws -> Bool in
            #expect(SCXMLCascade.current === outer)
            SCXMLCascade.withCurrent(inner) { #expect(SCXMLCascade.current === inner) }
            #expect(SCXMLCascade.current === outer, "the outer cascade is bound again")
            // A call that throws gives the outer one back too.
            struct Failed: Error {}
            #expect(throws: Failed.self) { try SCXMLCascade.withCurrent(inner) { throw Failed() } }
            #expect(SCXMLCascade.current === outer)
            let elsewhere = Locked(true)
            let done = DispatchSemaphore(value: 0)
            Thread {
                elsewhere.withLock { $0 = SCXMLCascade.current != nil }
                done.signal()
            }.start()
            done.wait()
            return elsewhere.withLock { $0 }
        }
        #expect(!seenElsewhere)
        #expect(SCXMLCascade.current == nil)
    }
}
