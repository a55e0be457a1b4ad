/// Maps an event to the index of its kind in a compiled chart.
///
/// When the event's `Kind` is an enum without payloads listed in declaration order by
/// ``StatechartEvent/allKinds`` (as `CaseIterable` does), the compiler verifies that each kind's
/// one-byte in-memory representation is its position in that list, and lookup reads that byte:
/// no hashing. Otherwise lookup goes through a dictionary of kinds, then one of names.
@usableFromInline
struct EventKindMap<Event: StatechartEvent> where Event.Kind: Hashable {
    /// How many kinds the discriminator can name: the number of kinds when `Kind`'s byte is its
    /// index (verified for every kind), otherwise 0, so that one comparison decides.
    @usableFromInline let discriminatorCount: Int
    /// Whether `Kind`'s byte is its index (verified for every kind in `allKinds`).
    var readsDiscriminator: Bool { discriminatorCount > 0 }
    @usableFromInline let byKind: [Event.Kind: Int32]
    @usableFromInline let byName: [String: Int32]
    /// For kinds that are strings, whose names are the kinds themselves: the names without a
    /// dictionary's hash (not usable for other kinds, nor for names that would probe too far).
    @usableFromInline let nameTable: NameIndexTable

    init(userKinds: [Event.Kind], byKind: [Event.Kind: Int32], byName: [String: Int32]) {
        self.byKind = byKind
        self.byName = byName
        // A string kind is its own name (`StatechartEvent.name(of:)`), and the user's kinds come
        // first in `byName` as in `byKind`: the name table gives what `slowIndex` gives.
        let stringKinds = Event.Kind.self == String.self
        nameTable = NameIndexTable(stringKinds ? byName : [:], isUsable: stringKinds)
        let size = MemoryLayout<Event.Kind>.size
        var verified = size <= 1 && !userKinds.isEmpty && userKinds.count <= 256
        if verified {
            for (position, kind) in userKinds.enumerated() where Self.discriminator(of: kind) != position {
                verified = false
                break
            }
            if size == 0 && userKinds.count != 1 { verified = false }
        }
        discriminatorCount = verified ? userKinds.count : 0
    }

    @inlinable
    static func discriminator(of kind: Event.Kind) -> Int {
        withUnsafeBytes(of: kind) { bytes in bytes.isEmpty ? 0 : Int(bytes[0]) }
    }

    /// The kind index of `event`, or -1 when the chart does not know its kind.
    ///
    /// - Complexity: O(1); no hashing when the discriminator is used.
    @inlinable
    func index(of event: Event) -> Int32 {
        let kind = event.kind
        let byte = Self.discriminator(of: kind)
        if byte < discriminatorCount { return Int32(truncatingIfNeeded: byte) }
        return slowIndex(of: kind)
    }

    @usableFromInline
    func slowIndex(of kind: Event.Kind) -> Int32 {
        if !byKind.isEmpty, let index = byKind[kind] { return index }
        return byName[Event.name(of: kind)] ?? -1
    }
}

extension EventKindMap: Sendable where Event: Sendable, Event.Kind: Sendable {}
