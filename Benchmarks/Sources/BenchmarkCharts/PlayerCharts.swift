import Foundation
import Statecharts
import StatechartsSCXML

// The media player of Examples/media-player.scxml four ways, fed the same cycle of events:
// generated from the document at build time (the StatechartsGenerator plugin writes `MediaPlayer`
// from media-player.scxml, a link to the example), written with the DSL, interpreted from the
// document (an SCXMLSession, as `statechart run` runs it), and as a hand-written `switch`.
// Each wrapper sends the event at `index` of the cycle, so that the four loops are alike.

/// The cycle of events: from `stopped` through playing, muting, pausing, scrubbing, and back.
let playerCycle: [MediaPlayer.Event] = [.play, .mute, .pause, .mute, .play, .scrub, .move, .move, .release, .stop]

/// How many events the cycle has.
public let playerCycleLength = 10

/// A started machine of one of the player's compiled charts: generated, written or timed.
public struct CompiledPlayer: CustomStringConvertible {
    var machine: StateMachine<MediaPlayer.State, MediaPlayer.Event, Void>

    init(_ chart: Statechart<MediaPlayer.State, MediaPlayer.Event, Void>) throws {
        machine = chart.makeMachine()
        try machine.start()
    }

    /// The player generated from its document.
    public static func generated() throws -> CompiledPlayer { try CompiledPlayer(MediaPlayer.chart()) }

    /// The player written with the DSL, element for element.
    public static func written() throws -> CompiledPlayer { try CompiledPlayer(makeWrittenPlayerChart()) }

    /// The player written with the DSL, its delayed sends and cancels as closures.
    public static func closures() throws -> CompiledPlayer { try CompiledPlayer(makeClosurePlayerChart()) }

    /// The player written with the DSL's timeouts.
    public static func timed() throws -> CompiledPlayer { try CompiledPlayer(makeTimedPlayerChart()) }

    /// Sends the event at `index` of the cycle.
    @inline(__always)
    public mutating func send(_ index: Int) throws { try machine.send(playerCycle[index]) }

    /// The active states.
    public var description: String { machine.description }
}

/// The same chart written with the DSL by hand: what the document says, element for element (the
/// delayed `tick` and `idle` sent on entry and cancelled on exit, written as data, as the
/// generator writes them).
func makeWrittenPlayerChart() throws -> Statechart<MediaPlayer.State, MediaPlayer.Event, Void> {
    try Statechart("media-player", initial: .stopped) {
        StateNode(.stopped) {
            On(.play, to: .active)
            On(.eject, to: .ejected)
        }
        Parallel(.active) {
            StateNode(.transport, initial: .playback) {
                StateNode(.playback, initial: .playing) {
                    History(.resume, .deep, default: .playing)
                    StateNode(.playing) {
                        OnEntry(send: .tick, after: .seconds(1), id: "tick")
                        OnExit(cancel: "tick")
                        On(.tick, to: .playing)
                        On(.pause, to: .paused)
                    }
                    StateNode(.paused) {
                        OnEntry(send: .idle, after: .seconds(300), id: "idle")
                        OnExit(cancel: "idle")
                        On(.play, to: .playing)
                        On(.idle, to: .stopped)
                    }
                    On(.scrub, to: .scrubbing)
                }
                StateNode(.scrubbing, initial: .held) {
                    StateNode(.held) { On(.move, to: .dragging) }
                    StateNode(.dragging) { On(.move) }
                    On(.release, to: .resume)
                }
            }
            StateNode(.volume, initial: .audible) {
                StateNode(.audible) { On(.mute, to: .muted) }
                StateNode(.muted) { On(.mute, to: .audible) }
            }
            On(.stop, to: .stopped)
        }
        Final(.ejected)
    }
}

/// The same chart with the delayed sends and cancels written as closures, as the generator wrote
/// them before `OnEntry(send:after:id:)`: each entry and exit of `playing` and `paused` takes the
/// general microstep.
func makeClosurePlayerChart() throws -> Statechart<MediaPlayer.State, MediaPlayer.Event, Void> {
    try Statechart("media-player", initial: .stopped) {
        StateNode(.stopped) {
            On(.play, to: .active)
            On(.eject, to: .ejected)
        }
        Parallel(.active) {
            StateNode(.transport, initial: .playback) {
                StateNode(.playback, initial: .playing) {
                    History(.resume, .deep, default: .playing)
                    StateNode(.playing) {
                        OnEntry { $0.send(.tick, after: .seconds(1), id: "tick") }
                        OnExit { $0.cancel(id: "tick") }
                        On(.tick, to: .playing)
                        On(.pause, to: .paused)
                    }
                    StateNode(.paused) {
                        OnEntry { $0.send(.idle, after: .seconds(300), id: "idle") }
                        OnExit { $0.cancel(id: "idle") }
                        On(.play, to: .playing)
                        On(.idle, to: .stopped)
                    }
                    On(.scrub, to: .scrubbing)
                }
                StateNode(.scrubbing, initial: .held) {
                    StateNode(.held) { On(.move, to: .dragging) }
                    StateNode(.dragging) { On(.move) }
                    On(.release, to: .resume)
                }
            }
            StateNode(.volume, initial: .audible) {
                StateNode(.audible) { On(.mute, to: .muted) }
                StateNode(.muted) { On(.mute, to: .audible) }
            }
            On(.stop, to: .stopped)
        }
        Final(.ejected)
    }
}

/// The same player as a developer would write it with the DSL: the delayed events sent on entry
/// and cancelled on exit are the states' timeouts, `After`, with no event.
func makeTimedPlayerChart() throws -> Statechart<MediaPlayer.State, MediaPlayer.Event, Void> {
    try Statechart("media-player", initial: .stopped) {
        StateNode(.stopped) {
            On(.play, to: .active)
            On(.eject, to: .ejected)
        }
        Parallel(.active) {
            StateNode(.transport, initial: .playback) {
                StateNode(.playback, initial: .playing) {
                    History(.resume, .deep, default: .playing)
                    StateNode(.playing) {
                        After(.seconds(1), to: .playing)
                        On(.pause, to: .paused)
                    }
                    StateNode(.paused) {
                        After(.seconds(300), to: .stopped)
                        On(.play, to: .playing)
                    }
                    On(.scrub, to: .scrubbing)
                }
                StateNode(.scrubbing, initial: .held) {
                    StateNode(.held) { On(.move, to: .dragging) }
                    StateNode(.dragging) { On(.move) }
                    On(.release, to: .resume)
                }
            }
            StateNode(.volume, initial: .audible) {
                StateNode(.audible) { On(.mute, to: .muted) }
                StateNode(.muted) { On(.mute, to: .audible) }
            }
            On(.stop, to: .stopped)
        }
        Final(.ejected)
    }
}

/// The player interpreted from its document, in a session.
public struct InterpretedPlayer: CustomStringConvertible {
    var session: SCXMLSession
    let events: [SCXMLEvent]

    /// A started session.
    public init() throws {
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "media-player.scxml")
        session = SCXMLSession(chart: try SCXMLChart.load(contentsOf: document))
        _ = try session.start()
        events = playerCycle.map { SCXMLEvent($0.rawValue) }
    }

    /// Sends the event at `index` of the cycle.
    @inline(__always)
    public mutating func send(_ index: Int) throws { _ = try session.send(events[index]) }

    /// The active states.
    public var description: String { session.description }
}

/// The player as a hand-written `switch`: the transport's state, the one to resume, and the
/// volume, with no timers (the cycle never waits).
public struct SwitchPlayer {
    enum Input { case play, pause, stop, eject, scrub, move, release, mute }
    enum Mode { case stopped, active, ejected }
    enum Transport { case playing, paused, held, dragging }

    static let cycle: [Input] = [.play, .mute, .pause, .mute, .play, .scrub, .move, .move, .release, .stop]

    var mode = Mode.stopped
    var transport = Transport.playing
    var resume = Transport.playing
    var muted = false

    /// Creates the initial value.
    public init() {}

    /// Whether the player is stopped.
    public var isStopped: Bool { mode == .stopped }

    /// Sends the event at `index` of the cycle.
    @inline(never)
    public mutating func send(_ index: Int) {
        let input = Self.cycle[index]
        switch mode {
        case .stopped:
            switch input {
            case .play:
                mode = .active
                transport = .playing
                muted = false
            case .eject: mode = .ejected
            default: break
            }
        case .ejected:
            break
        case .active:
            switch (transport, input) {
            case (_, .stop): mode = .stopped
            case (_, .mute): muted.toggle()
            case (.playing, .pause): transport = .paused
            case (.paused, .play): transport = .playing
            case (.playing, .scrub), (.paused, .scrub):
                resume = transport
                transport = .held
            case (.held, .move): transport = .dragging
            case (.held, .release), (.dragging, .release): transport = resume
            default: break
            }
        }
    }
}
