import StatechartExamples
import Statecharts
import Testing

@Suite("The swipe-to-check gesture")
struct SwipeToCheckTests {
    func row(checked: Bool) throws -> StateMachine<SwipeState, SwipeEvent, SwipeContext> {
        var row = try makeSwipeChart().makeMachine(context: SwipeContext(isChecked: checked), unhandledEvents: .reject)
        try row.start()
        return row
    }

    @Test func aShortDragSnapsBackAndChangesNothing() throws {
        var row = try row(checked: false)
        try row.send(.began)
        try row.send(.moved(offset: 50))
        #expect(row.activeStates == [.hand])
        try row.send(.ended)
        #expect(row.activeStates == [.idle])
        #expect(row.context == SwipeContext(isChecked: false))
    }

    @Test("letting go at the elbow toggles whatever the model holds", arguments: [false, true])
    func elbowToggles(checked: Bool) throws {
        var row = try row(checked: checked)
        try row.send(.began)
        try row.send(.moved(offset: 120))
        #expect(row.activeStates == [.elbow])
        try row.send(.ended)
        #expect(row.activeStates == [.idle])
        #expect(row.context.isChecked == !checked)
    }

    @Test func theZonesFollowTheFingerBothWays() throws {
        var row = try row(checked: false)
        try row.send(.began)
        var zones: [[SwipeState]] = []
        for offset in [10.0, 90, 250, 150, 30, 220] {
            try row.send(.moved(offset: offset))
            zones.append(row.activeStates)
        }
        #expect(zones == [[.hand], [.elbow], [.shoulder], [.elbow], [.hand], [.shoulder]])
    }

    @Test func lettingGoAtTheShoulderDeletesTheItem() throws {
        var row = try row(checked: false)
        try row.send(.began)
        try row.send(.moved(offset: 260))
        try row.send(.ended)
        #expect(row.activeStates == [.deleted])
        #expect(row.status == .finished)
    }

    @Test func aCancelledGestureSnapsBackFromAnyZone() throws {
        var row = try row(checked: true)
        try row.send(.began)
        try row.send(.moved(offset: 150))
        try row.send(.cancelled)
        #expect(row.activeStates == [.idle])
        #expect(row.context.isChecked, "unchanged")
        #expect(throws: MachineError<SwipeState, SwipeEvent>.self) { try row.send(.ended) }
    }
}
