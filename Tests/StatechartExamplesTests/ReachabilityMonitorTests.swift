import StatechartExamples
import Statecharts
import Testing

@Suite("The reachability monitor")
struct ReachabilityMonitorTests {
    func monitor(
        _ path: NetworkPath = .wifi
    ) throws -> StateMachine<ReachabilityState, ReachabilityEvent, ReachabilityContext> {
        var monitor = try makeReachabilityChart().makeMachine(context: ReachabilityContext(reported: path))
        try monitor.start()
        return monitor
    }

    @Test func itStartsInTheReportedPath() throws {
        #expect(try monitor(.wifi).activeStates == [.wifi])
        #expect(try monitor(.cellular).activeStates == [.cellular])
        #expect(try monitor(.none).activeStates == [.offline])
    }

    @Test func aChangeThatHoldsIsReportedAfterTheDebounce() throws {
        var monitor = try monitor()
        try monitor.send(.pathChanged(.cellular))
        #expect(monitor.activeStates == [.changing])
        try monitor.advance(by: .milliseconds(1_999))
        #expect(monitor.context.reports == [])
        try monitor.advance(by: .milliseconds(1))
        #expect(monitor.activeStates == [.cellular])
        #expect(monitor.context.reports == [.cellular])
    }

    @Test func aFlappingConnectionIsRiddenOut() throws {
        var monitor = try monitor()
        // Wi-Fi drops and comes back, three times, within the debounce.
        for _ in 0..<3 {
            try monitor.send(.pathChanged(.none))
            try monitor.advance(by: .milliseconds(500))
            try monitor.send(.pathChanged(.wifi))
            try monitor.advance(by: .milliseconds(500))
        }
        try monitor.advance(by: .seconds(10))
        #expect(monitor.activeStates == [.wifi])
        #expect(monitor.context.reports == [], "nothing changed for the app")
    }

    @Test func eachNewPathRestartsTheWaitAndOnlyTheLastIsReported() throws {
        var monitor = try monitor()
        try monitor.send(.pathChanged(.none))
        try monitor.advance(by: .milliseconds(1_500))
        try monitor.send(.pathChanged(.cellular))
        try monitor.advance(by: .milliseconds(1_500))
        #expect(monitor.context.reports == [], "the cellular path has held 1.5 s only")
        try monitor.advance(by: .milliseconds(500))
        #expect(monitor.context.reports == [.cellular])
        try monitor.send(.pathChanged(.none))
        try monitor.advance(by: .seconds(2))
        #expect(monitor.activeStates == [.offline])
        #expect(monitor.context.reports == [.cellular, .none])
    }
}
