/// A set of state indices, as a bitset.
///
/// States are numbered in document order, so iterating a `StateSet` upwards visits states in
/// entry order and iterating it downwards visits them in exit order. The first 64 states live in
/// an inline word, so charts of up to 64 states never allocate; larger charts keep further words
/// in an array.
@usableFromInline
struct StateSet: Hashable, Sendable {
    @usableFromInline var first: UInt64
    @usableFromInline var rest: [UInt64]

    /// An empty set able to hold states `0..<capacity`.
    @inlinable
    init(capacity: Int) {
        first = 0
        rest = capacity > 64 ? [UInt64](repeating: 0, count: (capacity - 1) / 64) : []
    }

    @inlinable
    var isEmpty: Bool {
        if first != 0 { return false }
        for word in rest where word != 0 { return false }
        return true
    }

    @inlinable
    func contains(_ state: Int) -> Bool {
        if state < 64 { return first & (1 &<< UInt64(state)) != 0 }
        let index = state >> 6
        return rest[index - 1] & (1 << UInt64(state & 63)) != 0
    }

    @inlinable
    mutating func insert(_ state: Int) {
        if state < 64 {
            first |= 1 &<< UInt64(state)
        } else {
            rest[(state >> 6) - 1] |= 1 << UInt64(state & 63)
        }
    }

    @inlinable
    mutating func remove(_ state: Int) {
        if state < 64 {
            first &= ~(1 &<< UInt64(state))
        } else {
            rest[(state >> 6) - 1] &= ~(1 << UInt64(state & 63))
        }
    }

    @inlinable
    mutating func removeAll() {
        first = 0
        for index in rest.indices { rest[index] = 0 }
    }

    @inlinable
    var count: Int {
        var total = first.nonzeroBitCount
        for word in rest { total += word.nonzeroBitCount }
        return total
    }

    @inlinable
    func word(_ index: Int) -> UInt64 {
        index == 0 ? first : rest[index - 1]
    }

    @inlinable
    mutating func setWord(_ index: Int, _ value: UInt64) {
        if index == 0 { first = value } else { rest[index - 1] = value }
    }

    @inlinable
    var wordCount: Int { rest.count + 1 }

    /// The bits of word `index` that fall in the closed range `lower...upper`.
    @inlinable
    static func mask(word index: Int, lower: Int, upper: Int) -> UInt64 {
        let wordLow = index << 6
        let wordHigh = wordLow + 63
        if upper < wordLow || lower > wordHigh { return 0 }
        let low = max(lower, wordLow) - wordLow
        let high = min(upper, wordHigh) - wordLow
        let width = high - low + 1
        let bits: UInt64 = width == 64 ? ~0 : ((1 << UInt64(width)) - 1)
        return bits << UInt64(low)
    }

    /// Whether any member lies in the closed range `lower...upper`.
    @inlinable
    func intersects(lower: Int, upper: Int) -> Bool {
        if lower > upper { return false }
        for index in (lower >> 6)...(upper >> 6)
        where word(index) & Self.mask(word: index, lower: lower, upper: upper) != 0 {
            return true
        }
        return false
    }

    /// Inserts the members of `other` that lie in `lower...upper`.
    @inlinable
    mutating func formUnion(_ other: StateSet, lower: Int, upper: Int) {
        if lower > upper { return }
        for index in (lower >> 6)...(upper >> 6) {
            let bits = other.word(index) & Self.mask(word: index, lower: lower, upper: upper)
            if bits != 0 { setWord(index, word(index) | bits) }
        }
    }

    @inlinable
    mutating func formUnion(_ other: StateSet) {
        first |= other.first
        for index in rest.indices { rest[index] |= other.rest[index] }
    }

    /// Keeps the members that `other` (of the same capacity) also has.
    @inlinable
    mutating func formIntersection(_ other: StateSet) {
        first &= other.first
        for index in rest.indices { rest[index] &= other.rest[index] }
    }

    /// The members of exactly one of the two sets (of the same capacity).
    @inlinable
    func symmetricDifference(_ other: StateSet) -> StateSet {
        var result = self
        result.first ^= other.first
        for index in result.rest.indices { result.rest[index] ^= other.rest[index] }
        return result
    }

    @inlinable
    mutating func subtract(_ other: StateSet) {
        first &= ~other.first
        for index in rest.indices { rest[index] &= ~other.rest[index] }
    }

    @inlinable
    func isDisjoint(with other: StateSet) -> Bool {
        if first & other.first != 0 { return false }
        for index in rest.indices where rest[index] & other.rest[index] != 0 { return false }
        return true
    }

    /// Calls `body` for each member in ascending (document, entry) order.
    @inlinable
    func forEachAscending(_ body: (Int) throws -> Void) rethrows {
        var bits = first
        while bits != 0 {
            try body(bits.trailingZeroBitCount)
            bits &= bits &- 1
        }
        guard !rest.isEmpty else { return }
        // One buffer for the whole scan: large sets are scanned word by word without touching the
        // array's reference count for each word.
        try rest.withUnsafeBufferPointer { words in
            for index in words.indices {
                var bits = words[index]
                while bits != 0 {
                    try body(((index &+ 1) << 6) + bits.trailingZeroBitCount)
                    bits &= bits &- 1
                }
            }
        }
    }

    /// Calls `body` for each member in descending (exit) order.
    @inlinable
    func forEachDescending(_ body: (Int) throws -> Void) rethrows {
        var index = wordCount - 1
        while index >= 0 {
            var bits = word(index)
            while bits != 0 {
                let bit = 63 - bits.leadingZeroBitCount
                try body((index << 6) + bit)
                bits &= ~(1 << UInt64(bit))
            }
            index -= 1
        }
    }

    /// The members in ascending order.
    @inlinable
    var members: [Int] {
        var result: [Int] = []
        result.reserveCapacity(count)
        forEachAscending { result.append($0) }
        return result
    }
}

extension StateSet {
    /// The bits `0...bit` of a word (none for a negative `bit`, all from 63 on).
    @inlinable
    static func lowMask(through bit: Int) -> UInt64 {
        if bit < 0 { return 0 }
        if bit >= 63 { return ~0 }
        return (1 &<< UInt64(bit &+ 1)) &- 1
    }

    /// The largest member: for a configuration without parallel states, its atomic state.
    @inlinable
    var last: Int? {
        if rest.isEmpty { return first == 0 ? nil : 63 &- first.leadingZeroBitCount }
        var index = rest.count
        while index > 0 {
            let bits = rest[index - 1]
            if bits != 0 { return (index << 6) + 63 - bits.leadingZeroBitCount }
            index -= 1
        }
        return first == 0 ? nil : 63 - first.leadingZeroBitCount
    }

    /// The largest member in `lower...upper`, if any.
    @inlinable
    func lastMember(lower: Int, upper: Int) -> Int? {
        if lower > upper { return nil }
        if upper < 64 {
            let bits = first & Self.lowMask(through: upper) & ~Self.lowMask(through: lower - 1)
            return bits == 0 ? nil : 63 - bits.leadingZeroBitCount
        }
        var index = upper >> 6
        let lowest = lower >> 6
        while index >= lowest {
            let bits = word(index) & Self.mask(word: index, lower: lower, upper: upper)
            if bits != 0 { return (index << 6) + 63 - bits.leadingZeroBitCount }
            index -= 1
        }
        return nil
    }

    /// The smallest member in `lower...upper`, if any.
    @inlinable
    func firstMember(lower: Int, upper: Int) -> Int? {
        if lower > upper { return nil }
        if upper < 64 {
            let bits = first & Self.lowMask(through: upper) & ~Self.lowMask(through: lower - 1)
            return bits == 0 ? nil : bits.trailingZeroBitCount
        }
        var index = lower >> 6
        let highest = upper >> 6
        while index <= highest {
            let bits = word(index) & Self.mask(word: index, lower: lower, upper: upper)
            if bits != 0 { return (index << 6) + bits.trailingZeroBitCount }
            index += 1
        }
        return nil
    }
}
