import Testing

@testable import Statecharts

enum Door: Hashable, Sendable { case door, closed, open, locked }

/// Events with payloads, named by a nested kind enum with dotted raw values.
enum DoorEvent: StatechartEvent {
    case open, close
    case lock(code: Int)
    case unlock(code: Int)
    case fault(String)

    enum Kind: String, CaseIterable, Sendable {
        case open, close, lock, unlock
        case fault = "error.door"
    }

    var kind: Kind {
        switch self {
        case .open: .open
        case .close: .close
        case .lock: .lock
        case .unlock: .unlock
        case .fault: .fault
        }
    }
}

struct DoorContext: Sendable {
    var code: Int?
    var faults: [String] = []
}

/// A kind type whose `allKinds` is not in declaration order: lookup must not read its byte.
enum ShuffledEvent: StatechartEvent, CaseIterable, Hashable {
    case first, second, third
    static var allKinds: [ShuffledEvent] { [.third, .first, .second] }
}

@Suite struct EventKindTests {
    func doorChart() throws -> Statechart<Door, DoorEvent, DoorContext> {
        try Statechart<Door, DoorEvent, DoorContext> {
            StateNode(.door, initial: .closed) {
                StateNode(.closed) {
                    On(.open, to: .open)
                    On(.lock, to: .locked) { scope in
                        if case .lock(let code) = scope.event { scope.context.code = code }
                    }
                }
                StateNode(.open) { On(.close, to: .closed) }
                StateNode(.locked) {
                    On(
                        .unlock, to: .closed,
                        guard: { scope in
                            guard case .unlock(let code) = scope.event else { return false }
                            return code == scope.context.code
                        })
                }
                // A descriptor matches the dotted name of a typed kind.
                On(named: "error") { scope in
                    if case .fault(let reason) = scope.event { scope.context.faults.append(reason) }
                }
            }
        }
    }

    @Test("guards and actions read the payload of the event that fired them")
    func payloads() throws {
        var machine = try doorChart().makeMachine(context: DoorContext())
        try machine.start()
        try machine.send(.lock(code: 1234))
        #expect(machine.activeStates == [.locked])
        #expect(machine.context.code == 1234)
        try machine.send(.unlock(code: 1))
        #expect(machine.activeStates == [.locked])
        try machine.send(.unlock(code: 1234))
        #expect(machine.activeStates == [.closed])
    }

    @Test("a kind's name is its raw value, and descriptors match it by prefix")
    func dottedKindNames() throws {
        #expect(DoorEvent.fault("x").name == "error.door")
        #expect(DoorEvent.lock(code: 1).name == "lock")
        var machine = try doorChart().makeMachine(context: DoorContext())
        try machine.start()
        try machine.send(.fault("jammed"))
        #expect(machine.context.faults == ["jammed"])
    }

    @Test("a CaseIterable kind enum is looked up by its discriminator, without hashing")
    func discriminatorLookup() throws {
        let chart = try doorChart()
        #expect(chart.storage.kindMap.readsDiscriminator)
        for (index, kind) in DoorEvent.Kind.allCases.enumerated() {
            let event: DoorEvent =
                switch kind {
                case .open: .open
                case .close: .close
                case .lock: .lock(code: 0)
                case .unlock: .unlock(code: 0)
                case .fault: .fault("")
                }
            #expect(chart.storage.kindMap.index(of: event) == Int32(index))
        }
    }

    @Test(
        "kinds listed out of declaration order are looked up by hashing, and still dispatch correctly")
    func shuffledKinds() throws {
        let chart = try Statechart<String, ShuffledEvent, Void>(initial: "a") {
            StateNode("a") {
                On(.first, to: "b")
                On(.third, to: "c")
            }
            StateNode("b")
            StateNode("c")
        }
        #expect(!chart.storage.kindMap.readsDiscriminator)
        var machine = chart.makeMachine()
        try machine.start()
        try machine.send(.second)
        #expect(machine.activeStates == ["a"])
        try machine.send(.third)
        #expect(machine.activeStates == ["c"])
    }

    @Test("an event whose name the chart has never seen is matched by descriptors at run time")
    func unknownNames() throws {
        let chart = try TestChart {
            StateNode("a") {
                On(named: "net.error", to: "offline")
                On(named: "*") { $0.context.append("other \($0.eventName ?? "?")") }
            }
            StateNode("offline")
        }
        var machine = try started(chart)
        try machine.send("weather.sunny")
        #expect(machine.context.entries == ["other weather.sunny"])
        try machine.send("net.error.dns.timeout")
        #expect(machine.activeStates == ["offline"])
    }

    @Test("a payload-free enum is its own kind")
    func ownKind() {
        #expect(ShuffledEvent.second.kind == .second)
        #expect(ShuffledEvent.name(of: .second) == "second")
        #expect(ShuffledEvent.allKinds == [.third, .first, .second])
    }
}
