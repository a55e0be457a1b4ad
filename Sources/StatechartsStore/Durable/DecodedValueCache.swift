#if Store
import Statecharts

/// Values this process encoded for the store, kept beside their JSON so that it need not decode
/// them again when it reads them back: the events its `send` journaled (by journal position), and
/// the effects its steps wrote to the outbox (by key).
///
/// A value is handed out only for the same JSON it was kept with, so a key that came to name
/// something else (a store emptied and journaled again under the same fleet) is decoded as
/// before. A value is handed out once; the cache holds at most `limit` values and starts again
/// empty when full, so a value that another process reads back (and this one never does) does
/// not stay.
final class DecodedValueCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let values = Locked([Key: (payload: String, value: Value)]())
    private let limit: Int

    /// A cache of at most `limit` values.
    init(limit: Int) { self.limit = limit }

    /// Keeps `value`, encoded as `payload`, under `key`.
    func keep(_ value: Value, as payload: String, for key: Key) {
        values.withLock { values in
            if values.count >= limit { values.removeAll(keepingCapacity: true) }
            values[key] = (payload, value)
        }
    }

    /// Keeps each value, encoded as its payload, under its key.
    func keep(_ entries: [(key: Key, payload: String, value: Value)]) {
        if entries.isEmpty { return }
        values.withLock { values in
            if values.count + entries.count > limit { values.removeAll(keepingCapacity: true) }
            for entry in entries.prefix(limit) { values[entry.key] = (entry.payload, entry.value) }
        }
    }

    /// The value kept under `key` if it was kept as `payload`, removed from the cache.
    func take(_ key: Key, payload: String) -> Value? {
        guard let kept = values.withLock({ $0.removeValue(forKey: key) }), kept.payload == payload else { return nil }
        return kept.value
    }

    /// How many values are kept.
    var count: Int { values.withLock { $0.count } }
}
#endif
