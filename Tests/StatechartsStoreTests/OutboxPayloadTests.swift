#if Store
import Foundation
import Statecharts
import Testing

@testable import StatechartsStore

/// An outbox entry's payload, written by hand for sends and log records: it must read back as the
/// same effect, and hold what the effect's `Codable` conformance writes, for any strings.
@Suite struct OutboxPayloadTests {
    typealias Effect = DurableEffect<ShipmentState, ShipmentEvent, ShipmentRecord>

    /// Strings from scalars that JSON must escape or that tell encoders apart: quotes,
    /// backslashes, slashes, every C0 control, DEL and C1, the line and paragraph separators, a
    /// bidirectional control, the byte order mark, combining marks, and scalars beyond the Basic
    /// Multilingual Plane.
    struct HostileText {
        var state: UInt64

        static let pool: [Unicode.Scalar] =
            [
                "\"", "\\", "/", "a", "Z", "0", " ", "{", "}", ",", ":", "\u{7F}", "\u{85}", "\u{9F}", "\u{2028}",
                "\u{2029}", "\u{202E}", "\u{FEFF}", "\u{301}", "é", "日", "😀", "\u{10FFFF}",
            ]
            + (0..<0x20).compactMap(Unicode.Scalar.init)

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }

        mutating func string() -> String {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int(next() % 12) { text.append(Self.pool[Int(next() % UInt64(Self.pool.count))]) }
            return String(text)
        }

        mutating func optional() -> String? { next() % 3 == 0 ? nil : string() }
    }

    /// The effects to check: sends and log records with random strings, and one of every other
    /// case, which go through the encoder whole.
    static func effects() -> [Effect] {
        var random = HostileText(state: 43)
        var effects: [Effect] = []
        for number in 0..<400 {
            effects.append(
                .send(event: .shipped(number), target: random.string(), type: random.optional(), id: random.optional()))
            effects.append(.log(label: random.optional(), message: random.string()))
        }
        effects.append(.send(event: .followUp(-1), target: "", type: nil, id: nil))
        effects.append(.log(label: nil, message: ""))
        effects.append(.cancelInvocation(InvocationID(rawValue: 3)))
        effects.append(.startInvocation(id: InvocationID(rawValue: 4), name: "pick", state: .active, context: .init()))
        effects.append(
            .activity(
                id: InvocationID(rawValue: 5), name: nil, state: nil, context: ShipmentRecord(shipped: [1]),
                definition: 2))
        return effects
    }

    @Test("each payload reads back with JSONDecoder as the effect it was written from")
    func readsBack() throws {
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        for effect in Self.effects() {
            let payload = try effect.payload(encoder)
            let read = try decoder.decode(Effect.self, from: Data(payload.utf8))
            #expect(read == effect, "\(payload.debugDescription)")
        }
    }

    @Test("each payload is, parsed, the JSON the effect's Codable conformance writes")
    func sameJSONAsTheEncoder() throws {
        let encoder = JSONEncoder()
        for effect in Self.effects() {
            let payload = try effect.payload(encoder)
            let written = try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? NSDictionary
            // The encoder leaves U+FEFF and some others raw, and JSONSerialization may drop a raw
            // U+FEFF: its escaped form reads back whole.
            let encoded = Escaping.jsonText(String(decoding: try encoder.encode(effect), as: UTF8.self))
            let expected = try JSONSerialization.jsonObject(with: Data(encoded.utf8)) as? NSDictionary
            #expect(written != nil)
            #expect(written == expected, "\(payload.debugDescription)")
        }
    }

    @Test("no control, separator or bidirectional scalar is left raw in a send's or a log record's payload")
    func nothingRaw() throws {
        let encoder = JSONEncoder()
        for effect in Self.effects() {
            let payload = try effect.payload(encoder)
            switch effect {
            case .send, .log:
                #expect(
                    !payload.unicodeScalars.contains(where: Escaping.isInvisibleInSource), "\(payload.debugDescription)"
                )
            default:
                // Written whole by JSONEncoder, which leaves some of these scalars raw.
                break
            }
        }
    }
}
#endif
