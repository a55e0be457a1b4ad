import Foundation
import Statecharts
import Testing

// The examples of the article "Saving and restoring a machine", as the article shows them.

enum Phase: Hashable, Sendable, Codable { case idle, connecting, connected }
enum Input: StatechartEvent, CaseIterable, Codable { case connect, connected, drop }
struct Session: Sendable, Codable { var attempts = 0 }

func sessionChart() throws -> Statechart<Phase, Input, Session> {
    try Statechart(initial: .idle) {
        StateNode(.idle) { On(.connect, to: .connecting) { $0.context.attempts += 1 } }
        StateNode(.connecting) {
            On(.connected, to: .connected)
            After(.seconds(10), to: .idle)
        }
        StateNode(.connected) { On(.drop, to: .idle) }
    }
}

@Suite struct SavingAndRestoringTests {
    @Test("an archive restores a machine whose timeout fires after the time it was stored")
    @MainActor
    func archiveAndRestore() throws {
        let chart = try sessionChart()
        var machine = chart.makeMachine(context: Session())
        try machine.start()
        try machine.send(.connect)
        try machine.advance(by: .seconds(6))  // 4 seconds left on the timeout
        let savedAt = Date().addingTimeInterval(-5)

        let data = try JSONEncoder().encode(machine.archive())

        let archive: MachineArchive<Phase, Input, Session>
        let away: Duration
        do {
            let archive = try JSONDecoder().decode(MachineArchive<Phase, Input, Session>.self, from: data)
            var machine = try StateMachine(chart: chart, restoring: archive)
            #expect(machine.activeStates == [.connecting])
            #expect(machine.context.attempts == 1)

            let away = Duration.seconds(Date().timeIntervalSince(savedAt))
            try machine.resume(after: away, overdueTimers: .fire)  // or .drop

            #expect(machine.activeStates == [.idle], "the timeout fell due while the machine was stored")
        }
        archive = try JSONDecoder().decode(MachineArchive<Phase, Input, Session>.self, from: data)
        away = .seconds(1)

        var restored = try StateMachine(chart: chart, restoring: archive)
        try restored.resume(after: away, overdueTimers: .fire)
        let live = IsolatedStatechart(machine: restored)
        try live.start()

        #expect(live.configuration == [.connecting])
        #expect(live.machine().pendingTimerCount == 1, "the timeout is armed on the clock, 3 seconds left")
    }
}
