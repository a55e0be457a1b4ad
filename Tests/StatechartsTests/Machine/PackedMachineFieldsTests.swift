import Testing

@testable import Statecharts

/// A machine keeps its limit, status, policy and a live runtime's flags in one word: each field
/// reads back what was written, whatever the others hold, at the extremes of its range.
@Suite struct PackedMachineFieldsTests {
    @Test("each field reads back what was written, and writing it leaves the others as they were")
    func fieldsAreIndependent() {
        for limit in [Int32.min, -1, 0, 1, 100, Int32.max] {
            for policy in [UnhandledEventPolicy.ignore, .reject] {
                var fields = PackedMachineFields(limit: limit, unhandledEvents: policy)
                #expect(fields.limit == limit)
                #expect(fields.unhandledEvents == policy)
                #expect(fields.status == .notStarted)
                #expect(!fields.isRunning)
                #expect(fields.liveFlags == 0)
                #expect(!fields.timeIsStale)
                for status in [MachineStatus.running, .finished, .notStarted, .running] {
                    for flags in [UInt8(0), 1, 2, 0xFF] {
                        for stale in [true, false] {
                            fields.status = status
                            fields.liveFlags = flags
                            fields.timeIsStale = stale
                            #expect(fields.status == status)
                            #expect(fields.isRunning == (status == .running))
                            #expect(fields.liveFlags == flags)
                            #expect(fields.timeIsStale == stale)
                            #expect(fields.limit == limit)
                            #expect(fields.unhandledEvents == policy)
                        }
                    }
                }
                fields.limit = 7
                #expect(fields.limit == 7)
                #expect(fields.unhandledEvents == policy)
                #expect(fields.status == .running)
            }
        }
    }

    @Test("a machine without context is seven words, which Swift copies field by field")
    func machineIsSevenWords() {
        // Eight scalars or more, and appending a machine to an array copies and destroys it
        // through its generic value witnesses (Evolution/0003, "making a machine").
        #expect(MemoryLayout<StateMachine<String, NamedEvent, Void>>.size == 7 * MemoryLayout<Int>.size)
    }

    @Test("a machine's status, policy and limit read back through its public properties")
    func machineProperties() throws {
        var machine = try TestChart(initial: "a") {
            StateNode("a") { On("go", to: "b") }
            StateNode("b")
        }.makeMachine(context: Log(), unhandledEvents: .reject)
        #expect(machine.status == .notStarted)
        #expect(machine.unhandledEvents == .reject)
        machine.microstepLimit = 0
        #expect(machine.microstepLimit == 1)
        machine.microstepLimit = Int.max
        #expect(machine.microstepLimit == Int(Int32.max))
        try machine.start()
        #expect(machine.status == .running)
        #expect(machine.unhandledEvents == .reject)
        #expect(machine.microstepLimit == Int(Int32.max))
        machine.unhandledEvents = .ignore
        #expect(machine.unhandledEvents == .ignore)
        #expect(machine.status == .running)
    }
}
