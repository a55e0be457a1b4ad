import Statecharts

/// A session of the media player, on types generated from its document at build time: the
/// compiler checks every state and event named here against media-player.scxml.
@main
enum GeneratedPlayer {
    static func main() throws {
        var machine = try MediaPlayer.chart().makeMachine()
        try machine.start()
        print("start →", machine)
        for event: MediaPlayer.Event in [.play, .mute, .pause] {
            try machine.send(event)
            print(event.rawValue, "→", machine)
        }
        try machine.advance(by: .seconds(300))
        print("wait 5m →", machine)
        let states = MediaPlayer.State.allCases.map(\.rawValue).joined(separator: ", ")
        print("\(MediaPlayer.State.allCases.count) states: \(states)")
    }
}
