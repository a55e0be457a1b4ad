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
/// Before hashing, a lookup looks for the name's two words themselves (``words(of:)``) among the
/// words of the names the table holds. A name of up to 15 UTF-8 bytes, as almost every event
/// name is, is stored in those two words, so the same name has the same words however it was
/// made: found this way, it is neither hashed nor compared byte by byte. Equal words are the same
/// string, as the standard library's `==` also assumes: a name stored elsewhere is the same
/// storage, which the table holds and so keeps alive and unchanged. Any other name misses here
/// and is hashed.
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
    /// The held names' words (``words(of:)``), in slots picked by ``slot(ofWords:mask:)``: the
    /// first place a lookup looks. Empty when the words do not fit two `UInt64`s (a 32-bit
    /// platform) or fall into too long a run of filled slots; lookups then go straight to the
    /// hash.
    let wordSlots: [NameWords]

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
        self.wordSlots = self.isUsable ? Self.wordSlots(names: names, indices: indices, mask: mask) : []
    }

    /// The slots of the words of `names` (those whose `indices` are not -1), or none when their
    /// words cannot be read or they fall into too long a run.
    private static func wordSlots(names: [String], indices: [Int32], mask: Int) -> [NameWords] {
        var slots = Array(repeating: NameWords.empty, count: mask + 1)
        for (name, index) in zip(names, indices) where index >= 0 {
            // `names` keeps each string, so that a name stored outside its words stays what they
            // point to for the table's life.
            guard let words = words(of: name) else { return [] }
            var slot = slot(ofWords: words, mask: mask)
            while slots[slot].index >= 0 { slot = (slot + 1) & mask }
            slots[slot] = NameWords(first: words.first, second: words.second, index: index)
        }
        return longestRun(of: slots.map(\.index)) <= longestRunAllowed ? slots : []
    }

    /// The two words a `String` is made of, as they are; `nil` where a string is not two
    /// `UInt64`s. A string of up to 15 UTF-8 bytes holds them in these words, so equal names of
    /// that length have equal words; a longer one holds where its bytes are.
    @inlinable
    @inline(__always)
    static func words(of name: String) -> (first: UInt64, second: UInt64)? {
        guard MemoryLayout<String>.size == 16 else { return nil }
        return unsafeBitCast(name, to: (first: UInt64, second: UInt64).self)
    }

    /// The slot a name's words start their probe at: both words multiplied into one, whose high
    /// bits, folded down, pick the slot.
    @inline(__always)
    static func slot(ofWords words: (first: UInt64, second: UInt64), mask: Int) -> Int {
        let mixed = (words.first ^ (words.second &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed ^ (mixed &>> 31)) & mask
    }

    /// The kind index of `name`: -1 when the chart does not know it; `nil` when the table is not
    /// usable, or the name's bytes cannot be read in place (a string bridged from Objective-C), to
    /// be looked up otherwise.
    @usableFromInline
    func index(of name: String) -> Int32? {
        if let words = Self.words(of: name), let index = index(ofWords: words) { return index }
        return hashedIndex(of: name)
    }

    /// The kind index of the name whose words (``words(of:)``) are `words`, when the table holds
    /// those words; otherwise `nil`, for ``hashedIndex(of:)`` to decide (a table that is not usable
    /// holds no words). Reads the words alone, so that a caller need not hold a copy of the name.
    @usableFromInline
    func index(ofWords words: (first: UInt64, second: UInt64)) -> Int32? {
        guard !wordSlots.isEmpty else { return nil }
        var slot = Self.slot(ofWords: words, mask: mask)
        while true {
            let held = wordSlots[slot]
            if held.index < 0 { return nil }
            if held.first == words.first && held.second == words.second { return held.index }
            slot = (slot &+ 1) & mask
        }
    }

    /// ``index(of:)`` by the name's hash, for a name whose words the table does not hold: -1 when
    /// the chart does not know it; `nil` when the table is not usable, or the name's bytes cannot
    /// be read in place.
    @usableFromInline
    func hashedIndex(of name: String) -> Int32? {
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

/// A held name's two words (``NameIndexTable/words(of:)``) and its kind index; `index` is -1 in
/// an empty slot.
struct NameWords: Sendable {
    let first: UInt64
    let second: UInt64
    let index: Int32

    static let empty = NameWords(first: 0, second: 0, index: -1)
}
