import Statecharts
import Testing

struct Attempt: Sendable, Equatable {
    var peripheral: String
    var number: Int
}

@Suite struct StateDataTests {
    func chart() throws -> TestChart {
        try TestChart {
            StateNode("idle") { On("connect", to: "connecting") }
            StateNode("connecting") {
                StateData { scope in Attempt(peripheral: "device-\(scope.event?.payload ?? 0)", number: 1) }
                OnEntry { scope in
                    scope.context.append("entered with \(scope.data(of: "connecting", as: Attempt.self)?.number ?? 0)")
                }
                OnExit { scope in
                    scope.context.append("exit with \(scope.data(of: "connecting", as: Attempt.self)?.number ?? 0)")
                }
                On("retry", type: .internal) { scope in
                    scope.updateData(of: "connecting", as: Attempt.self) { $0.number += 1 }
                }
                On("cancel", to: "idle")
            }
        }
    }

    @Test("state data is made on entry from the event, before the entry actions")
    func madeOnEntry() throws {
        var machine = try started(try chart())
        #expect(machine.data(of: "connecting", as: Attempt.self) == nil)
        try machine.send(NamedEvent("connect", payload: 7))
        #expect(machine.data(of: "connecting", as: Attempt.self) == Attempt(peripheral: "device-7", number: 1))
        #expect(machine.context.entries == ["entered with 1"])
    }

    @Test("state data is changed by actions and dropped on exit, after the exit actions")
    func changedAndDropped() throws {
        var machine = try started(try chart())
        try machine.send("connect")
        try machine.send("retry")
        try machine.send("retry")
        #expect(machine.data(of: "connecting", as: Attempt.self)?.number == 3)
        try machine.send("cancel")
        #expect(machine.context.entries.last == "exit with 3")
        #expect(machine.data(of: "connecting", as: Attempt.self) == nil)
        try machine.send("connect")
        #expect(machine.data(of: "connecting", as: Attempt.self)?.number == 1)
    }

    @Test("asking for data of the wrong type, or of a state without data, gives nil")
    func wrongType() throws {
        var machine = try started(try chart())
        try machine.send("connect")
        #expect(machine.data(of: "connecting", as: Int.self) == nil)
        #expect(machine.data(of: "idle", as: Attempt.self) == nil)
        #expect(machine.data(of: "nowhere", as: Attempt.self) == nil)
    }
}
