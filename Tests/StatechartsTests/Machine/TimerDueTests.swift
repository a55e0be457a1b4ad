import Statecharts
import Testing

/// `StateMachine.hasTimerDue(by:)`, which sessions ask before each call's due timers instead of
/// comparing `nextDeadline`: the two agree at every instant, at the deadline's own nanosecond and
/// a fraction of one either side of it.
@Suite struct TimerDueTests {
    @Test("a timer is due by an instant exactly when its deadline is at or before it")
    func agreesWithNextDeadline() throws {
        let chart = try TestChart {
            StateNode("waiting") { After(.milliseconds(1_500), to: "late") }
            StateNode("late")
        }
        var machine = chart.makeMachine(context: .init())
        #expect(!machine.hasTimerDue(by: .seconds(1_000)), "a machine not started has no timer")
        try machine.start()
        let deadline = try #require(machine.nextDeadline)
        #expect(deadline == .milliseconds(1_500))
        let attosecond = Duration(secondsComponent: 0, attosecondsComponent: 1)
        let instants: [Duration] = [
            .zero, .nanoseconds(-1), deadline - .nanoseconds(1), deadline - attosecond, deadline,
            deadline + attosecond, deadline + .nanoseconds(1), .seconds(Int64.max / 2), .seconds(-Int64.max / 2),
        ]
        for instant in instants {
            #expect(machine.hasTimerDue(by: instant) == (deadline <= instant), "at \(instant)")
        }
        try machine.advance(by: .seconds(2))
        #expect(machine.activeStates == ["late"])
        #expect(machine.nextDeadline == nil)
        #expect(!machine.hasTimerDue(by: .seconds(Int64.max / 2)), "no timer is pending any more")
    }
}
