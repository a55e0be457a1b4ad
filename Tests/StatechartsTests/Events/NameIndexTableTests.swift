import Testing

@testable import Statecharts

@Suite struct NameIndexTableTests {
    /// Names of every shape a table meets: short ones stored inline in the string, long ones on
    /// the heap, dotted SCXML names, non-ASCII ones and the empty name.
    static func names(count: Int, seed: UInt64) -> [String] {
        var generator = RandomText(seed: seed)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz.é中😀_0123456789")
        var result: Set<String> = [""]
        while result.count < count {
            let length = generator.below(40)
            result.insert(String((0..<length).map { _ in alphabet[generator.below(alphabet.count)] }))
        }
        return result.sorted()
    }

    @Test("the table finds every name at its dictionary index, and -1 for a name it does not hold", arguments: 0..<20)
    func agreesWithTheDictionary(seed: UInt64) throws {
        let all = Self.names(count: 60, seed: seed)
        let held = Array(all.prefix(40))
        var byName: [String: Int32] = [:]
        for (index, name) in held.enumerated() { byName[name] = Int32(index) }
        let table = NameIndexTable(byName, isUsable: true)
        guard table.isUsable else { return }  // the names fell into one long run: the dictionary serves them
        for name in held { #expect(table.index(of: name) == byName[name]) }
        for name in all.dropFirst(40) { #expect(table.index(of: name) == -1) }
        // The same name from a string built another way (a substring, a concatenation).
        let long = held.max { $0.utf8.count < $1.utf8.count } ?? ""
        #expect(table.index(of: String(long.dropFirst(0))) == byName[long])
        #expect(table.index(of: "" + long) == byName[long])
        // Each name again, made from its bytes: a short one has the same words, a long one is
        // stored elsewhere and is found by its hash.
        for name in held {
            let remade = String(decoding: Array(name.utf8), as: UTF8.self)
            #expect(table.index(of: remade) == byName[name])
            #expect(table.hashedIndex(of: remade) == byName[name])
        }
    }

    @Test("a name of up to 15 bytes is found by its words; a longer one made anew is found by its hash")
    func shortNamesAreFoundByTheirWords() throws {
        let names = ["play", "pause", "tick", "done.state.x", "error.execution", "a name longer than fifteen", "é中😀"]
        var byName: [String: Int32] = [:]
        for (index, name) in names.enumerated() { byName[name] = Int32(index) }
        let table = NameIndexTable(byName, isUsable: true)
        try #require(table.isUsable && !table.wordSlots.isEmpty)
        let held = Set(table.wordSlots.filter { $0.index >= 0 }.map(\.index))
        #expect(held == Set(byName.values))
        func foundByWords(_ name: String) -> Int32? {
            NameIndexTable.words(of: name).flatMap { table.index(ofWords: $0) }
        }
        for name in names {
            let remade = String(decoding: Array(name.utf8), as: UTF8.self)
            #expect(table.index(of: remade) == byName[name])
            // Up to 15 bytes, the name is its words; a longer one made anew points elsewhere,
            // and only the name the table holds is found by its words.
            #expect(foundByWords(remade) == (name.utf8.count <= 15 ? byName[name] : nil), "\(name)")
            #expect(foundByWords(name) == byName[name], "\(name)")
        }
        // A name the table does not hold is not found by its words; the hash says -1.
        #expect(foundByWords("plays") == nil)
        #expect(table.index(of: "plays") == -1)
        #expect(table.index(of: "") == -1)
        // A table that is not used finds nothing by words either.
        let unused = NameIndexTable(byName, isUsable: false)
        #expect(NameIndexTable.words(of: "play").flatMap { unused.index(ofWords: $0) } == nil)
        #expect(unused.index(of: "play") == nil)
        #expect(unused.hashedIndex(of: "play") == nil)
    }

    @Test("names whose words fall into one long run leave the words unused, and the hash finds them")
    func collidingWordsFallBackToTheHash() throws {
        // Nine short names whose words start at one slot of the 64 a table of nine names has.
        let colliding = Array(
            (0..<100_000).lazy.map { "w\($0)" }.filter { name in
                NameIndexTable.words(of: name).map { NameIndexTable.slot(ofWords: $0, mask: 63) == 5 } ?? false
            }.prefix(9))
        #expect(colliding.count == 9)
        var byName: [String: Int32] = [:]
        for (index, name) in colliding.enumerated() { byName[name] = Int32(index) }
        let table = NameIndexTable(byName, isUsable: true)
        try #require(table.isUsable)  // their hashes do not collide
        #expect(table.wordSlots.isEmpty)
        for name in colliding { #expect(table.index(of: name) == byName[name]) }
        #expect(table.index(of: "w-none") == -1)
    }

    @Test("names in one long run of slots leave the table unused, and the chart finds them by its dictionary")
    func collidingNamesFallBackToTheDictionary() throws {
        // Nine names on one slot of the 64 a table of nine names has: one run of nine.
        let slot: (String) -> Int = { name in
            var copy = name
            return copy.withUTF8 { Int(truncatingIfNeeded: NameIndexTable.hash($0)) } & 63
        }
        let colliding = Array((0..<100_000).lazy.map { "e\($0)" }.filter { slot($0) == 5 }.prefix(9))
        #expect(colliding.count == 9)
        var byName: [String: Int32] = [:]
        for (index, name) in colliding.enumerated() { byName[name] = Int32(index) }
        #expect(!NameIndexTable(byName, isUsable: true).isUsable)
        #expect(NameIndexTable.longestRun(of: [0, -1, 2, 3, 4, -1]) == 3)
        #expect(NameIndexTable.longestRun(of: [0, 1, -1, 2, 3, 4]) == 5)  // a run around the end

        // A chart of those names still sends each to its own transition.
        let chart = try Statechart<Int, NamedEvent, Void>(initial: 0) {
            StateNode(0) {
                for (index, name) in colliding.enumerated() { On(name, to: index + 1) }
            }
            for index in colliding.indices { StateNode(index + 1) }
        }
        #expect(!chart.storage.kindMap.nameTable.isUsable)
        for (index, name) in colliding.enumerated() {
            var machine = chart.makeMachine()
            try machine.start()
            #expect(try machine.send(NamedEvent(name)))
            #expect(machine.activeStates == [index + 1])
        }
        var machine = chart.makeMachine()
        try machine.start()
        #expect(try !machine.send(NamedEvent("e-none")))
    }

    @Test("a chart of string kinds finds its events through the table; a chart of enum kinds does not use one")
    func chartsUseTheTableForStringKinds() throws {
        let chart = try Statechart<String, NamedEvent, Void>(initial: "idle") {
            StateNode("idle") { On("start", to: "running") }
            StateNode("running") {
                On("done.state.x", to: "idle")
                On("pause", to: "idle")
            }
        }
        #expect(chart.storage.kindMap.nameTable.isUsable)
        var machine = chart.makeMachine()
        try machine.start()
        #expect(try machine.send(NamedEvent("start")))
        #expect(try !machine.send(NamedEvent("start")))
        #expect(try machine.send(NamedEvent("pause")))
        #expect(machine.activeStates == ["idle"])
        let enumChart = try Statechart<Int, TableFlip, Void>(initial: 0) { StateNode(0) { On(.flip, to: 0) } }
        #expect(!enumChart.storage.kindMap.nameTable.isUsable)
    }
}

enum TableFlip: StatechartEvent, CaseIterable, Hashable, Sendable { case flip }
