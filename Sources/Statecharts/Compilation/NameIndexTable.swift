/// Finds a name among a chart's event kind names (`EventKindMap`'s names, for events whose kinds
/// are strings, as an SCXML event's are) without a dictionary's seeded hash: an open-addressed
/// table built once with the chart, probed from a short hash of the name's UTF-8 bytes, each hit
/// confirmed by comparing the names.
///
/// The hash is not seeded, so it is fixed per name. A lookup probes at most the longest run of
/// filled slots, and a table whose names fall into a run longer than ``longestRunAllowed`` (which
/// names chosen to collide could cause) is not used: the chart then looks names up in its
/// dictionary, as before. So no event name, hostile or not, costs more than that many comparisons.
///
/// A class, so that a machine reads it from its chart without retaining anything; immutable once
/// built, so machines on any thread share it.
@usableFromInline
final class NameIndexTable: Sendable {
    /// The longest run of filled slots a table may have.
    static let longestRunAllowed = 8

    /// Each slot's name; empty where `indices` is -1.
    let names: [String]
    /// Each slot's kind index, -1 for an empty slot.
    let indices: [Int32]
    /// Each slot's name's whole hash (``hash(_:)``), compared before the names: a lookup that
    /// meets another name in its run compares two words instead of two strings.
    let hashes: [UInt64]
    /// The number of slots less one (a power of two less one).
    let mask: Int
    /// Whether the table is used: `false` for a chart whose kinds are not strings, and when the
    /// names fall into too long a run of filled slots. Lookups then return `nil`.
    let isUsable: Bool

    /// A table of `indexByName`, usable when `isUsable` and its names probe at most
    /// ``longestRunAllowed`` slots.
    init(_ indexByName: [String: Int32], isUsable: Bool) {
        var capacity = 8
        while capacity < indexByName.count * 4 { capacity *= 2 }
        var names = Array(repeating: "", count: capacity)
        var indices = Array(repeating: Int32(-1), count: capacity)
        var hashes = Array(repeating: UInt64(0), count: capacity)
        let mask = capacity - 1
        // Sorted, so that the table is the same on every run.
        for (name, index) in indexByName.sorted(by: { $0.value < $1.value }) {
            var copy = name
            let hash = copy.withUTF8 { Self.hash($0) }
            var slot = Int(truncatingIfNeeded: hash) & mask
            while indices[slot] >= 0 { slot = (slot + 1) & mask }
            names[slot] = name
            indices[slot] = index
            hashes[slot] = hash
        }
        self.names = names
        self.indices = indices
        self.hashes = hashes
        self.mask = mask
        self.isUsable = isUsable && Self.longestRun(of: indices) <= Self.longestRunAllowed
    }

    /// The kind index of `name`: -1 when the chart does not know it; `nil` when the table is not
    /// usable, or the name's bytes cannot be read in place (a string bridged from Objective-C), to
    /// be looked up otherwise.
    @usableFromInline
    func index(of name: String) -> Int32? {
        guard isUsable, let hash = name.utf8.withContiguousStorageIfAvailable(Self.hash) else { return nil }
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let index = indices[slot]
            if index < 0 { return -1 }
            if hashes[slot] == hash && names[slot] == name { return index }
            slot = (slot &+ 1) & mask
        }
    }

    /// FNV-1a of `bytes`, its high bits folded into the low ones that pick a slot.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash ^ (hash &>> 32)
    }

    /// The longest run of filled slots, counted around the end of the table: the most slots an
    /// unsuccessful lookup reads before it finds an empty one.
    static func longestRun(of indices: [Int32]) -> Int {
        guard let empty = indices.firstIndex(where: { $0 < 0 }) else { return indices.count }
        var longest = 0
        var run = 0
        for offset in 1...indices.count {
            if indices[(empty + offset) % indices.count] >= 0 {
                run += 1
                longest = max(longest, run)
            } else {
                run = 0
            }
        }
        return longest
    }
}
