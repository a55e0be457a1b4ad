import Testing

@testable import Statecharts

@Suite struct StateSetTests {
    /// Sets of up to 200 states with members at every position near word boundaries.
    static let positions = [0, 1, 2, 62, 63, 64, 65, 126, 127, 128, 129, 190, 199]

    func set(_ members: [Int], capacity: Int = 200) -> StateSet {
        var set = StateSet(capacity: capacity)
        for member in members { set.insert(member) }
        return set
    }

    @Test("insert, remove, contains and count agree with a Set at every word boundary")
    func membership() {
        var set = StateSet(capacity: 200)
        var reference = Set<Int>()
        for position in Self.positions {
            set.insert(position)
            reference.insert(position)
            #expect(set.count == reference.count)
        }
        for value in 0..<200 { #expect(set.contains(value) == reference.contains(value)) }
        for position in Self.positions where position % 2 == 0 {
            set.remove(position)
            reference.remove(position)
        }
        #expect(set.members == reference.sorted())
        set.removeAll()
        #expect(set.isEmpty)
    }

    @Test("ascending and descending iteration visit members in document and exit order")
    func iteration() {
        let set = set(Self.positions)
        var ascending: [Int] = []
        set.forEachAscending { ascending.append($0) }
        var descending: [Int] = []
        set.forEachDescending { descending.append($0) }
        #expect(ascending == Self.positions)
        #expect(descending == Self.positions.reversed())
    }

    @Test("range queries agree with filtering, for every range over a sparse set")
    func rangeQueries() {
        let members = [3, 63, 64, 100, 128, 191]
        let set = set(members)
        for lower in stride(from: 0, to: 200, by: 7) {
            for upper in stride(from: lower - 1, to: 200, by: 5) {
                let inRange = members.filter { $0 >= lower && $0 <= upper }
                #expect(set.intersects(lower: lower, upper: upper) == !inRange.isEmpty)
                #expect(set.firstMember(lower: lower, upper: upper) == inRange.first)
                #expect(set.lastMember(lower: lower, upper: upper) == inRange.last)
            }
        }
    }

    @Test("a set of up to 64 states keeps no heap words")
    func inline() {
        #expect(StateSet(capacity: 64).rest.isEmpty)
        #expect(StateSet(capacity: 65).rest.count == 1)
        #expect(StateSet(capacity: 129).rest.count == 2)
    }
}
