import Statecharts
import Testing

/// The example of the README, run as written, with `print` captured.
@Suite struct ReadmeTests {
    static let expectedOutput = """
        toggle → [on, dim]
        brighter → [on, bright]
        60 s later → [off]
        """

    @Test("the README's example prints what the README shows")
    func readmeExample() throws {
        var output: [String] = []
        func print(_ items: Any...) { output.append(items.map { "\($0)" }.joined(separator: " ")) }

        // README example
        enum Light: Hashable, Sendable { case off, on, dim, bright }
        enum Switch: StatechartEvent, CaseIterable { case toggle, brighter, dimmer }

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
        for event: Switch in [.toggle, .brighter] {
            try machine.send(event)
            print(event, "→", machine)
        }
        try machine.advance(by: .seconds(60))
        print("60 s later →", machine)
        // End of README example

        #expect(output.joined(separator: "\n") == Self.expectedOutput)
    }
}
