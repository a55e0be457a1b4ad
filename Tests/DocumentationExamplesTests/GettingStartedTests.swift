import Statecharts
import Testing

enum Light: Hashable, Sendable { case off, on, dim, bright }

enum Switch: StatechartEvent, CaseIterable { case toggle, brighter, dimmer }

// The examples of the article "Getting Started with Statecharts", as the article shows them.

@Suite struct GettingStartedTests {
    @Test("the lamp goes where the article says, and prints what it shows")
    func lamp() throws {
        var output: [String] = []
        func print(_ items: Any...) { output.append(items.map { "\($0)" }.joined(separator: " ")) }

        let lamp = try Statechart<Light, Switch, Void>(initial: .off) {
            StateNode(.off) { On(.toggle, to: .on) }
            StateNode(.on, initial: .dim) {
                StateNode(.dim) { On(.brighter, to: .bright) }
                StateNode(.bright) { On(.dimmer, to: .dim) }
                On(.toggle, to: .off)
                After(.seconds(60), to: .off)
            }
        }
        var machine = lamp.makeMachine()
        try machine.start()
        try machine.send(.toggle)
        print(machine)  // [on, dim]
        try machine.send(.brighter)
        print(machine)  // [on, bright]
        try machine.advance(by: .seconds(60))
        print(machine)  // [off]

        #expect(output == ["[on, dim]", "[on, bright]", "[off]"])
    }

    @Test("a machine that rejects unhandled events says which event and where")
    func rejecting() throws {
        var output: [String] = []
        func print(_ items: Any...) { output.append(items.map { "\($0)" }.joined(separator: " ")) }

        var game = try makeGameChart().makeMachine(context: GameProgress(), unhandledEvents: .reject)
        try game.start()
        do {
            try game.send(.finish(score: 10))
        } catch {
            print(error)  // no transition handles the event 'finish' in the configuration [introduction]
        }

        #expect(output == ["no transition handles the event 'finish' in the configuration [introduction]"])
    }

    @Test("the scope's example collects points, raises a level and counts lives")
    func scope() throws {
        var machine = try arcadeChart().makeMachine(context: ArcadeScore())
        try machine.start()
        try machine.send(.collect(60))
        try machine.send(.collect(50))
        #expect(machine.context.score == 110)
        #expect(machine.context.levels == 1, "levelUp was raised once the score reached 100")
        try machine.send(.hit)
        #expect(machine.context.lives == 1)
        try machine.send(.hit)
        #expect(machine.activeStates == [.gameOver])
    }
}

// MARK: - Around the article's fragment on the scope

enum ArcadeScreen: Hashable, Sendable { case game, playing, gameOver }

enum ArcadeEvent: StatechartEvent {
    case collect(Int), levelUp, hit

    enum Kind: CaseIterable, Sendable { case collect, levelUp, hit }

    var kind: Kind {
        switch self {
        case .collect: .collect
        case .levelUp: .levelUp
        case .hit: .hit
        }
    }
}

struct ArcadeScore: Sendable {
    var score = 0
    var lives = 2
    var levels = 0
}

func arcadeChart() throws -> Statechart<ArcadeScreen, ArcadeEvent, ArcadeScore> {
    try Statechart(initial: .game) {
        StateNode(.game, initial: .playing) {
            StateNode(.playing) {
                On(.collect) { scope in
                    guard case .collect(let points) = scope.event else { return }
                    scope.context.score += points
                    if scope.context.score >= 100 { scope.raise(.levelUp) }
                }
                On(.hit, to: .gameOver, guard: { $0.context.lives == 1 })
                On(.hit) { $0.context.lives -= 1 }
            }
            StateNode(.gameOver)
            On(.levelUp) { $0.context.levels += 1 }
        }
    }
}
