import Statecharts
import Testing

// MARK: - The game flow, as a user writes it

enum GameScreen: Hashable, Sendable {
    case menus, lastMenu, introduction, choosingEpisode, choosingLevel
    case help, playing, finished
}

struct Episode: Hashable, Sendable {
    var number: Int
    var levels: Int
}

enum GameEvent: StatechartEvent {
    case start, showHelp, closeHelp, back
    case choose(Episode)
    case chooseLevel(Int)
    case finish(score: Int)
    case playAgain

    enum Kind: CaseIterable, Sendable {
        case start, showHelp, closeHelp, back, choose, chooseLevel, finish, playAgain
    }

    var kind: Kind {
        switch self {
        case .start: .start
        case .showHelp: .showHelp
        case .closeHelp: .closeHelp
        case .back: .back
        case .choose: .choose
        case .chooseLevel: .chooseLevel
        case .finish: .finish
        case .playAgain: .playAgain
        }
    }
}

extension GameEvent {
    /// The payloads, for guards and actions to read. Guards and actions run wherever the machine
    /// runs, so what they call is `nonisolated`, also in an app whose default isolation is the
    /// main actor.
    nonisolated var episode: Episode? { if case .choose(let episode) = self { episode } else { nil } }
    nonisolated var level: Int? { if case .chooseLevel(let level) = self { level } else { nil } }
    nonisolated var score: Int? { if case .finish(let score) = self { score } else { nil } }
}

struct GameProgress: Sendable, Equatable {
    var episode: Episode?
    var level: Int?
    var lastScore: Int?
    var bestScore = 0

    nonisolated func canPlay(level: Int?) -> Bool {
        guard let level, let episode else { return false }
        return (1...episode.levels).contains(level)
    }
}

func makeGameChart() throws -> Statechart<GameScreen, GameEvent, GameProgress> {
    try Statechart<GameScreen, GameEvent, GameProgress>("game", initial: .menus) {
        StateNode(.menus, initial: .introduction) {
            History(.lastMenu)
            StateNode(.introduction) {
                On(.start, to: .choosingEpisode)
            }
            StateNode(.choosingEpisode) {
                On(.choose, to: .choosingLevel) { $0.context.episode = $0.event?.episode }
                On(.back, to: .introduction)
            }
            StateNode(.choosingLevel) {
                On(.chooseLevel, to: .playing, guard: { $0.context.canPlay(level: $0.event?.level) }) {
                    $0.context.level = $0.event?.level
                }
                On(.back, to: .choosingEpisode)
            }
            On(.showHelp, to: .help)
        }
        StateNode(.help) {
            On(.closeHelp, to: .lastMenu)
        }
        StateNode(.playing) {
            On(.finish, to: .finished) { scope in
                let score = scope.event?.score ?? 0
                scope.context.lastScore = score
                scope.context.bestScore = max(scope.context.bestScore, score)
            }
        }
        StateNode(.finished) {
            On(.playAgain, to: .choosingLevel)
            On(.back, to: .introduction)
        }
    }
}

// MARK: - Tests

@Suite struct GameFlowTests {
    @Test("the article's game plays as it says, and the last event is refused")
    func articleGame() throws {
        var output: [String] = []
        func print(_ items: Any...) { output.append(items.map { "\($0)" }.joined(separator: " ")) }
        func play() throws {
            var game = try makeGameChart().makeMachine(context: GameProgress(), unhandledEvents: .reject)
            try game.start()
            try game.send(.start)
            try game.send(.choose(Episode(number: 2, levels: 5)))
            try game.send(.showHelp)
            try game.send(.closeHelp)  // back to choosing a level
            try game.send(.chooseLevel(3))
            try game.send(.finish(score: 1200))
            print(game, game.context.bestScore)  // [finished] 1200
            try game.send(.chooseLevel(1))  // throws: nothing handles 'chooseLevel' in [finished]
        }
        #expect {
            try play()
        } throws: { error in
            "\(error)" == "no transition handles the event 'chooseLevel' in the configuration [finished]"
        }
        #expect(output == ["[finished] 1200"])
    }

    func newGame() throws -> StateMachine<GameScreen, GameEvent, GameProgress> {
        var game = try makeGameChart().makeMachine(context: GameProgress(), unhandledEvents: .reject)
        try game.start()
        return game
    }

    @Test("a whole game: introduction, episode, level, playing, finished with a score, and again")
    func wholeGame() throws {
        var game = try newGame()
        #expect(game.activeStates == [.introduction])
        try game.send(.start)
        try game.send(.choose(Episode(number: 2, levels: 5)))
        #expect(game.activeStates == [.choosingLevel])
        #expect(game.context.episode?.number == 2)
        try game.send(.chooseLevel(3))
        #expect(game.activeStates == [.playing])
        try game.send(.finish(score: 1200))
        #expect(game.activeStates == [.finished])
        #expect(
            game.context
                == GameProgress(episode: Episode(number: 2, levels: 5), level: 3, lastScore: 1200, bestScore: 1200))
        try game.send(.playAgain)
        try game.send(.chooseLevel(4))
        try game.send(.finish(score: 900))
        #expect(game.context.bestScore == 1200)
        #expect(game.context.lastScore == 900)
    }

    @Test("help returns to whichever menu screen it was opened from")
    func helpReturnsToMenu() throws {
        var game = try newGame()
        try game.send(.showHelp)
        #expect(game.activeStates == [.help])
        try game.send(.closeHelp)
        #expect(game.activeStates == [.introduction])
        try game.send(.start)
        try game.send(.choose(Episode(number: 1, levels: 3)))
        try game.send(.showHelp)
        try game.send(.closeHelp)
        #expect(game.activeStates == [.choosingLevel])
    }

    @Test("invalid events are rejected with the screen they were sent in, and change nothing")
    func invalidEventsRejected() throws {
        var game = try newGame()
        #expect {
            try game.send(.finish(score: 10))
        } throws: { error in
            guard let error = error as? MachineError<GameScreen, GameEvent>,
                case .unhandledEvent(let event, let configuration) = error
            else { return false }
            return event.kind == .finish && configuration == [.introduction]
        }
        try game.send(.start)
        try game.send(.choose(Episode(number: 1, levels: 3)))
        #expect(throws: MachineError<GameScreen, GameEvent>.self) { try game.send(.chooseLevel(9)) }
        #expect(game.activeStates == [.choosingLevel])
        #expect(game.context.level == nil)
        #expect(throws: MachineError<GameScreen, GameEvent>.self) { try game.send(.playAgain) }
    }
}
