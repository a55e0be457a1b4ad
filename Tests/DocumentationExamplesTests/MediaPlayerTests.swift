import Statecharts
import Testing

// MARK: - The media player, as a user writes it

enum Player: Hashable, Sendable {
    case stopped, active
    case playback, resume, playing, paused
    case scrubbing, held, dragging
}

enum PlayerEvent: StatechartEvent {
    case play, pause, stop
    case scrubBegan, scrubMoved(to: Double), scrubEnded

    enum Kind: CaseIterable, Sendable { case play, pause, stop, scrubBegan, scrubMoved, scrubEnded }

    var kind: Kind {
        switch self {
        case .play: .play
        case .pause: .pause
        case .stop: .stop
        case .scrubBegan: .scrubBegan
        case .scrubMoved: .scrubMoved
        case .scrubEnded: .scrubEnded
        }
    }
}

struct Track: Sendable, Equatable {
    var duration: Double
    var position = 0.0
}

func makePlayerChart() throws -> Statechart<Player, PlayerEvent, Track> {
    try Statechart<Player, PlayerEvent, Track>("player", initial: .stopped) {
        StateNode(.stopped) {
            OnEntry { $0.context.position = 0 }
            On(.play, to: .playing)
        }
        StateNode(.active, initial: .playback) {
            StateNode(.playback, initial: .playing) {
                History(.resume)
                StateNode(.playing) {
                    After(.seconds(1), to: .playing) { scope in
                        scope.context.position = min(scope.context.position + 1, scope.context.duration)
                    }
                    On(.pause, to: .paused)
                }
                StateNode(.paused) {
                    On(.play, to: .playing)
                }
                On(.scrubBegan, to: .scrubbing)
            }
            StateNode(.scrubbing, initial: .held) {
                StateNode(.held) {
                    On(.scrubMoved, to: .dragging) { scope in
                        guard case .scrubMoved(let position) = scope.event else { return }
                        scope.context.position = position
                    }
                }
                StateNode(.dragging) {
                    On(.scrubMoved) { scope in
                        guard case .scrubMoved(let position) = scope.event else { return }
                        scope.context.position = position
                    }
                }
                On(.scrubEnded, to: .resume)
            }
            On(.stop, to: .stopped)
        }
    }
}

// MARK: - Tests

@Suite struct MediaPlayerTests {
    @Test("the article's session ends where it says")
    func articleSession() throws {
        var output: [String] = []
        func print(_ items: Any...) { output.append(items.map { "\($0)" }.joined(separator: " ")) }

        var player = try makePlayerChart().makeMachine(context: Track(duration: 180))
        try player.start()
        try player.send(.play)
        try player.advance(by: .seconds(5))  // position 5
        try player.send(.scrubBegan)  // held; the timer is cancelled
        try player.send(.scrubMoved(to: 60))  // dragging, position 60
        try player.send(.scrubEnded)  // playing again, through history
        print(player, player.context.position)  // [active, playback, playing] 60.0

        #expect(output == ["[active, playback, playing] 60.0"])
    }

    func player() throws -> StateMachine<Player, PlayerEvent, Track> {
        var player = try makePlayerChart().makeMachine(context: Track(duration: 180))
        try player.start()
        return player
    }

    @Test("scrubbing returns to playing when it started while playing")
    func scrubWhilePlaying() throws {
        var player = try player()
        try player.send(.play)
        try player.send(.scrubBegan)
        #expect(player.activeStates == [.held])
        try player.send(.scrubMoved(to: 42))
        #expect(player.activeStates == [.dragging])
        try player.send(.scrubMoved(to: 60))
        try player.send(.scrubEnded)
        #expect(player.activeStates == [.playing])
        #expect(player.context.position == 60)
    }

    @Test("scrubbing returns to paused when it started while paused, also when only held")
    func scrubWhilePaused() throws {
        var player = try player()
        try player.send(.play)
        try player.send(.pause)
        try player.send(.scrubBegan)
        try player.send(.scrubEnded)
        #expect(player.activeStates == [.paused])
        #expect(player.context.position == 0)
    }

    @Test("the position advances once a second while playing, and only then")
    func positionTimerScopedToPlaying() throws {
        var player = try player()
        try player.send(.play)
        try player.advance(by: .seconds(5))
        #expect(player.context.position == 5)
        try player.send(.pause)
        try player.advance(by: .seconds(5))
        #expect(player.context.position == 5)
        try player.send(.scrubBegan)
        try player.advance(by: .seconds(5))
        #expect(player.context.position == 5)
        try player.send(.scrubEnded)
        try player.send(.play)
        try player.advance(by: .milliseconds(2500))
        #expect(player.context.position == 7)
        try player.send(.stop)
        #expect(player.pendingTimerCount == 0)
        #expect(player.context.position == 0)
    }
}

/// The example charts, checked and tabulated.
extension MediaPlayerTests {
    @Test("the media player, the game flow and a chart with history have no findings")
    func cleanCharts() throws {
        #expect(try makePlayerChart().diagnostics().isEmpty)
        #expect(try makeGameChart().diagnostics().isEmpty)
    }

    @Test("the completeness table lists, for each state, the events it and its ancestors handle")
    func completenessTable() throws {
        let table = try makePlayerChart().completenessTable()
        #expect(table.events == ["play", "pause", "stop", "scrubBegan", "scrubMoved", "scrubEnded"])
        let stopped = try #require(table.rows.first { $0.state == .stopped })
        #expect(stopped.handled == ["play"])
        #expect(stopped.unhandled == ["pause", "stop", "scrubBegan", "scrubMoved", "scrubEnded"])
        let playing = try #require(table.rows.first { $0.state == .playing })
        #expect(playing.handled == ["pause", "stop", "scrubBegan"], "stop and scrubBegan come from ancestors")
        #expect(table.rows.map(\.state) == [.stopped, .playing, .paused, .held, .dragging])
        let lines = table.description.split(separator: "\n")
        #expect(lines.first == "state     play  pause  stop  scrubBegan  scrubMoved  scrubEnded")
        #expect(lines.dropFirst().first == "stopped   yes   -      -     -           -           -")
    }

    @Test("a machine reports the events its active states handle now")
    func handledNow() throws {
        var machine = try makePlayerChart().makeMachine(context: Track(duration: 10))
        #expect(machine.handledEventNames.isEmpty, "nothing before it starts")
        try machine.start()
        #expect(machine.handledEventNames == ["play"])
        try machine.send(.play)
        #expect(machine.handledEventNames == ["pause", "stop", "scrubBegan"])
    }
}
