import Statecharts

// The machines measured, written as a user writes them, each with its hand-written `switch`
// equivalent: the baseline every figure is a ratio to.

// MARK: - Flat: a 3-state cycle

/// The states of the three-state cycle.
public enum Light: Hashable, Sendable { case red, green, yellow }
/// The single event of the three-state cycle.
public enum Tick: StatechartEvent, Sendable, CaseIterable { case next }

/// The three-state cycle as a chart.
public func makeLightChart() throws -> Statechart<Light, Tick, Void> {
    try Statechart<Light, Tick, Void>(initial: .red) {
        StateNode(.red) { On(.next, to: .green) }
        StateNode(.green) { On(.next, to: .yellow) }
        StateNode(.yellow) { On(.next, to: .red) }
    }
}

/// The three-state cycle as a hand-written `switch`.
public struct SwitchLight {
    /// Creates the initial value.
    public init() {}
    /// The current state.
    public var state = Light.red

    /// Handles one event.
    @inline(never)
    public mutating func send(_ event: Tick) {
        switch (state, event) {
        case (.red, .next): state = .green
        case (.green, .next): state = .yellow
        case (.yellow, .next): state = .red
        }
    }
}

/// `count` started machines of the three-state cycle, made as an app makes them (made, started,
/// appended): what the construction figures measure, in the benchmarks, `Profile` and `Ratios`.
@inline(never)
public func makeStartedMachines(
    _ count: Int, of chart: Statechart<Light, Tick, Void>
) throws -> [StateMachine<Light, Tick, Void>] {
    var machines: [StateMachine<Light, Tick, Void>] = []
    machines.reserveCapacity(count)
    for _ in 0..<count {
        var machine = chart.makeMachine()
        try machine.start()
        machines.append(machine)
    }
    return machines
}

// MARK: - Flat: a two-state toggle

/// The states of the toggle.
public enum Toggle: Hashable, Sendable { case off, on }
/// The single event of the toggle.
public enum Flick: StatechartEvent, Sendable, CaseIterable { case flick }

/// The two-state toggle as a chart: the flat chart the live machines are measured on.
public func makeToggleChart() throws -> Statechart<Toggle, Flick, Void> {
    try Statechart<Toggle, Flick, Void>(initial: .off) {
        StateNode(.off) { On(.flick, to: .on) }
        StateNode(.on) { On(.flick, to: .off) }
    }
}

/// The toggle as a hand-written `switch`.
public struct SwitchToggle {
    /// Creates the initial value.
    public init() {}
    /// The current state.
    public var state = Toggle.off

    /// Handles one event.
    @inline(never)
    public mutating func send(_ event: Flick) {
        switch (state, event) {
        case (.off, .flick): state = .on
        case (.on, .flick): state = .off
        }
    }
}

// MARK: - Flat: 20 states, 10 event kinds

/// The twenty states of the flat machine.
public enum Station: Int, Hashable, Sendable, CaseIterable {
    case s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15, s16, s17, s18, s19
}

/// The ten event kinds of the flat machine.
public enum Signal10: Int, StatechartEvent, Sendable, CaseIterable { case e0, e1, e2, e3, e4, e5, e6, e7, e8, e9 }

/// State `s` handles event `e` when `(s + e) % 2 == 0`, going to `(7s + 3e + 1) % 20`.
public func stationTarget(_ state: Int, _ event: Int) -> Int? {
    (state + event) % 2 == 0 ? (7 * state + 3 * event + 1) % 20 : nil
}

/// The twenty-state machine as a chart, with the transitions ``stationTarget(_:_:)`` gives.
public func makeStationChart() throws -> Statechart<Station, Signal10, Void> {
    let elements: [ChartElement<Station, Signal10, Void>] = Station.allCases.map { state in
        .state(
            state,
            elements: Signal10.allCases.compactMap { event in
                stationTarget(state.rawValue, event.rawValue).map { target in
                    ChartElement.transition(.events([.kind(event)]), targets: [Station.allCases[target]])
                }
            })
    }
    return try Statechart(name: "stations", elements: elements)
}

/// 1024 events that cycle through every kind in a scrambled order.
public let stationEvents: [Signal10] = (0..<1024).map { Signal10.allCases[($0 * 7 + $0 / 10) % 10] }

// MARK: - Hierarchical: leaves 5 levels deep, in different subtrees

/// The states of the two five-level subtrees.
public enum Deep: Hashable, Sendable {
    case a1, a2, a3, a4, a5, leafA
    case b1, b2, b3, b4, b5, leafB
}

/// The event that moves between the two deepest leaves.
public enum Hop: StatechartEvent, Sendable, CaseIterable { case hop }

/// Two five-level subtrees whose leaves hop to each other, exiting and entering five states each time.
public func makeDeepChart() throws -> Statechart<Deep, Hop, Void> {
    try Statechart<Deep, Hop, Void>(initial: .leafA) {
        StateNode(.a1) {
            StateNode(.a2) {
                StateNode(.a3) { StateNode(.a4) { StateNode(.a5) { StateNode(.leafA) { On(.hop, to: .leafB) } } } }
            }
        }
        StateNode(.b1) {
            StateNode(.b2) {
                StateNode(.b3) { StateNode(.b4) { StateNode(.b5) { StateNode(.leafB) { On(.hop, to: .leafA) } } } }
            }
        }
    }
}

/// The deep hop as a hand-written `switch` (nesting has no cost there).
public struct SwitchDeep {
    /// Creates the initial value.
    public init() {}
    /// The current state.
    public var state = Deep.leafA

    /// Handles one event.
    @inline(never)
    public mutating func send(_ event: Hop) {
        switch (state, event) {
        case (.leafA, .hop): state = .leafB
        case (.leafB, .hop): state = .leafA
        default: break
        }
    }
}

// MARK: - Parallel: 4 regions react to the same event

/// The states of the four parallel regions.
public enum Quad: Hashable, Sendable {
    case all, r1, r2, r3, r4, on1, off1, on2, off2, on3, off3, on4, off4
}

/// The event every region reacts to.
public enum Flip: StatechartEvent, Sendable, CaseIterable { case flip }

/// Four parallel regions, each toggling on every event.
public func makeQuadChart() throws -> Statechart<Quad, Flip, Void> {
    try Statechart<Quad, Flip, Void>(initial: .all) {
        Parallel(.all) {
            StateNode(.r1) {
                StateNode(.off1) { On(.flip, to: .on1) }
                StateNode(.on1) { On(.flip, to: .off1) }
            }
            StateNode(.r2) {
                StateNode(.off2) { On(.flip, to: .on2) }
                StateNode(.on2) { On(.flip, to: .off2) }
            }
            StateNode(.r3) {
                StateNode(.off3) { On(.flip, to: .on3) }
                StateNode(.on3) { On(.flip, to: .off3) }
            }
            StateNode(.r4) {
                StateNode(.off4) { On(.flip, to: .on4) }
                StateNode(.on4) { On(.flip, to: .off4) }
            }
        }
    }
}

/// The four regions as a hand-written `switch` over four flags.
public struct SwitchQuad {
    /// Creates the initial value.
    public init() {}
    /// Whether each region is on.
    public var regions: (Bool, Bool, Bool, Bool) = (false, false, false, false)

    /// Handles one event.
    @inline(never)
    public mutating func send(_ event: Flip) {
        switch event {
        case .flip:
            regions.0.toggle()
            regions.1.toggle()
            regions.2.toggle()
            regions.3.toggle()
        }
    }
}

// MARK: - Guards and actions that read and write the context

/// The states of the turnstile.
public enum Gate: Hashable, Sendable { case closed, open }
/// The events of the turnstile.
public enum Coin: StatechartEvent, Sendable, CaseIterable { case coin, push }

/// The turnstile's context: what guards read and actions write.
public struct Turnstile: Sendable {
    /// Coins inserted.
    public var coins = 0
    /// People let through.
    public var passes = 0
    /// Creates the initial value.
    public init() {}
}

/// The turnstile as a chart, with guards and actions on the context.
public func makeTurnstileChart() throws -> Statechart<Gate, Coin, Turnstile> {
    try Statechart<Gate, Coin, Turnstile>(initial: .closed) {
        StateNode(.closed) {
            On(.coin, to: .open, guard: { $0.context.coins % 8 != 7 }) { $0.context.coins += 1 }
            On(.coin) { $0.context.coins += 2 }
        }
        StateNode(.open) {
            On(.push, to: .closed, guard: { $0.context.coins > $0.context.passes }) { $0.context.passes += 1 }
            On(.coin) { $0.context.coins += 1 }
        }
    }
}

/// The turnstile as a hand-written `switch`.
public struct SwitchTurnstile {
    /// Creates the initial value.
    public init() {}
    /// The current state.
    public var state = Gate.closed
    /// The extended state.
    public var context = Turnstile()

    /// Handles one event.
    @inline(never)
    public mutating func send(_ event: Coin) {
        switch (state, event) {
        case (.closed, .coin):
            if context.coins % 8 != 7 {
                context.coins += 1
                state = .open
            } else {
                context.coins += 2
            }
        case (.open, .push):
            if context.coins > context.passes {
                context.passes += 1
                state = .closed
            }
        case (.open, .coin):
            context.coins += 1
        case (.closed, .push):
            break
        }
    }
}

/// 1024 turnstile events: two coins, then a push.
public let turnstileEvents: [Coin] = (0..<1024).map { $0 % 3 == 2 ? .push : .coin }

// MARK: - Events with payloads

/// The states of the tally.
public enum Register: Hashable, Sendable { case counting, frozen }

/// The tally's events, one carrying a payload.
public enum Entry: StatechartEvent, Sendable {
    case add(Int), freeze, thaw

    /// The payload-free kinds of the events.
    public enum Kind: CaseIterable, Sendable { case add, freeze, thaw }

    /// The kind of this event.
    public var kind: Kind {
        switch self {
        case .add: .add
        case .freeze: .freeze
        case .thaw: .thaw
        }
    }

    /// The amount an `add` carries; 0 for the other events.
    public var amount: Int { if case .add(let amount) = self { amount } else { 0 } }
}

/// The tally's context.
public struct Tally: Sendable {
    /// The running sum of the added amounts.
    public var total = 0
    /// Creates the initial value.
    public init() {}
}

/// The tally as a chart whose action reads the event's payload.
public func makeTallyChart() throws -> Statechart<Register, Entry, Tally> {
    try Statechart<Register, Entry, Tally>(initial: .counting) {
        StateNode(.counting) {
            On(.add) { $0.context.total &+= $0.event?.amount ?? 0 }
            On(.freeze, to: .frozen)
        }
        StateNode(.frozen) { On(.thaw, to: .counting) }
    }
}

/// The tally as a hand-written `switch`.
public struct SwitchTally {
    /// Creates the initial value.
    public init() {}
    /// The current state.
    public var state = Register.counting
    /// The extended state.
    public var tally = Tally()

    /// Handles one event.
    @inline(never)
    public mutating func send(_ event: Entry) {
        switch (state, event) {
        case (.counting, .add(let amount)): tally.total &+= amount
        case (.counting, .freeze): state = .frozen
        case (.frozen, .thaw): state = .counting
        default: break
        }
    }
}

/// 1024 tally events, mostly additions, with a freeze and thaw every ten.
public let tallyEvents: [Entry] = (0..<1024).map { index in
    switch index % 10 {
    case 4: .freeze
    case 5: .thaw
    default: .add(index)
    }
}

// MARK: - Timers: a timeout armed and cancelled on every other event

/// The states of the watchdog.
public enum Watch: Hashable, Sendable { case idle, waiting, expired }
/// The events of the watchdog.
public enum Poke: StatechartEvent, Sendable, CaseIterable { case wait, poke }

/// A watchdog whose waiting state arms a five-second timeout, cancelled when it is poked.
public func makeWatchChart() throws -> Statechart<Watch, Poke, Void> {
    try Statechart<Watch, Poke, Void>(initial: .idle) {
        StateNode(.idle) { On(.wait, to: .waiting) }
        StateNode(.waiting) {
            After(.seconds(5), to: .expired)
            On(.poke, to: .idle)
        }
        StateNode(.expired)
    }
}

/// The watchdog as a hand-written `switch` storing a deadline.
public struct SwitchWatch {
    /// Creates the initial value.
    public init() {}
    /// The current state.
    public var state = Watch.idle
    /// When the timeout fires, if armed.
    public var deadline: Int64?
    /// The current time in nanoseconds.
    public var now: Int64 = 0

    /// Handles one event.
    @inline(never)
    public mutating func send(_ event: Poke) {
        switch (state, event) {
        case (.idle, .wait):
            state = .waiting
            deadline = now + 5_000_000_000
        case (.waiting, .poke):
            state = .idle
            deadline = nil
        default: break
        }
    }
}
