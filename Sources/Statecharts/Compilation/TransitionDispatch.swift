/// For each state and event kind, the state's own transitions that the kind fires, in document
/// order.
///
/// Charts with up to ``denseLimit`` (state, kind) pairs use a dense table: finding the candidates
/// is one array read. Larger charts keep, per state, the kinds it handles sorted, and binary-search
/// them.
@usableFromInline
struct TransitionDispatch: Sendable {
    @usableFromInline var kindCount = 0
    /// Dense: candidates of `(state, kind)` are `list[offsets[state * kindCount + kind] ..< offsets[... + 1]]`.
    @usableFromInline var offsets: [Int32] = []
    @usableFromInline var list: [Int32] = []
    /// Sparse: entries of state `s` are `entries[entryOffsets[s] ..< entryOffsets[s + 1]]`, sorted by kind.
    @usableFromInline var entryOffsets: [Int32] = []
    @usableFromInline var entries: [SparseEntry] = []
    @usableFromInline var isDense = true

    @usableFromInline static let denseLimit = 1 << 22

    @usableFromInline
    struct SparseEntry: Sendable {
        @usableFromInline var kind: Int32
        @usableFromInline var start: Int32
        @usableFromInline var end: Int32
    }

    init() {}

    /// Builds the table from each state's `(kind, transition)` pairs, given in document order of
    /// the transitions.
    init(stateCount: Int, kindCount: Int, pairs: [[(kind: Int32, transition: Int32)]]) {
        self.kindCount = kindCount
        isDense = stateCount * kindCount <= Self.denseLimit
        if isDense {
            offsets.reserveCapacity(stateCount * kindCount + 1)
            for state in 0..<stateCount {
                let sorted = pairs[state].enumerated().sorted {
                    ($0.element.kind, $0.offset) < ($1.element.kind, $1.offset)
                }
                var cursor = 0
                for kind in 0..<kindCount {
                    offsets.append(Int32(list.count))
                    while cursor < sorted.count, Int(sorted[cursor].element.kind) == kind {
                        list.append(sorted[cursor].element.transition)
                        cursor += 1
                    }
                }
            }
            offsets.append(Int32(list.count))
        } else {
            entryOffsets.reserveCapacity(stateCount + 1)
            for state in 0..<stateCount {
                entryOffsets.append(Int32(entries.count))
                let sorted = pairs[state].enumerated().sorted {
                    ($0.element.kind, $0.offset) < ($1.element.kind, $1.offset)
                }
                var cursor = 0
                while cursor < sorted.count {
                    let kind = sorted[cursor].element.kind
                    let start = Int32(list.count)
                    while cursor < sorted.count, sorted[cursor].element.kind == kind {
                        list.append(sorted[cursor].element.transition)
                        cursor += 1
                    }
                    entries.append(SparseEntry(kind: kind, start: start, end: Int32(list.count)))
                }
            }
            entryOffsets.append(Int32(entries.count))
        }
    }

    /// The positions in ``list`` of the transitions of `state` that `kind` fires.
    ///
    /// - Complexity: O(1) for dense tables; O(log *k*) in the kinds the state handles otherwise.
    @inlinable
    func candidates(state: Int, kind: Int) -> Range<Int> {
        if isDense {
            let slot = state &* kindCount &+ kind
            return Int(offsets[slot])..<Int(offsets[slot &+ 1])
        }
        var low = Int(entryOffsets[state])
        var high = Int(entryOffsets[state + 1])
        let wanted = Int32(kind)
        while low < high {
            let middle = (low + high) >> 1
            let entry = entries[middle]
            if entry.kind == wanted { return Int(entry.start)..<Int(entry.end) }
            if entry.kind < wanted { low = middle + 1 } else { high = middle }
        }
        return 0..<0
    }
}
