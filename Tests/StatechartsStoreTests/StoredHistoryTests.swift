#if Store
import Foundation
import Statecharts
import StatechartsStore
import Testing

/// A stored machine's history: its journal replayed, read-only, each entry with the machine after
/// it and the microsteps it took.
@Suite(.serialized) struct StoredHistoryTests {
    static let stores = StoreKind.available

    @Test(
        "the history replays the whole journal from the creation: each step's machine and microsteps", arguments: stores
    )
    func fromCreation(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let fleet = try orders(store, clock)
        try await fleet.send(.add(10), to: "a", id: "first")
        try await fleet.send(.pay, to: "a", id: "second")
        try await fleet.drain()
        // The reminder of item 10 falls due two seconds later: an entry of time passing.
        clock.advance(by: .seconds(3))
        try await fleet.drain()
        try await fleet.send(.add(11), to: "a", id: "pending")

        let journal = try await store.journal(of: "a")
        let backlog = try await store.backlog(now: clock.now)
        let history = try #require(try await fleet.history(of: "a"))
        #expect(history.startsAfter == 0)
        #expect(history.entriesBeforeStart == 0)
        #expect(history.initial.status == .notStarted)
        #expect(history.steps.map(\.kind) == [.start, .event, .event, .advance])
        #expect(history.steps.map(\.sequence) == [1, 2, 3, 4])
        #expect(history.steps.map(\.eventID) == [nil, "first", "second", nil])
        #expect(history.steps.map { $0.snapshot.configuration } == [[.open], [.open], [.paid], [.paid]])
        #expect(history.steps[1].event == .add(10))
        #expect(history.steps[1].snapshot.context.items == [10])
        // The payment's microstep: open exited, paid entered, by the transition on pay.
        let payment = try #require(history.steps[2].snapshot.microsteps.first)
        #expect(payment.exited == [.open])
        #expect(payment.entered == [.paid])
        #expect(history.steps[3].snapshot.context.reminders == [10])
        #expect(history.steps.allSatisfy { $0.failure == nil })
        // The event not applied yet is listed, not replayed.
        #expect(history.pendingEventIDs == ["pending"])
        // The last step is the machine the fleet rebuilds.
        let rebuilt = try #require(try await fleet.machine("a"))
        #expect(history.steps.last?.snapshot.configuration == rebuilt.configuration)
        #expect(history.steps.last?.snapshot.context == rebuilt.context)
        // Reading the history wrote nothing, and delivered nothing.
        #expect(try await store.journal(of: "a") == journal)
        #expect(try await store.backlog(now: clock.now) == backlog)
        #expect(try await fleet.history(of: "nobody") == nil)
    }

    @Test(
        "after compaction, the history starts at the snapshot and counts the entries it cannot replay",
        arguments: stores)
    func fromSnapshot(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let clock = TestClock()
        let fleet = try orders(
            store, clock, options: DurableOptions(snapshotInterval: 5, compaction: .afterSnapshot(keepingLast: 2)))
        for item in 1...12 {
            try await fleet.send(.add(item), to: "a")
            try await fleet.drain()
        }
        let journal = try await store.journal(of: "a")
        let record = try #require(try await store.record(of: "a"))
        #expect(journal.first?.sequence != 1)
        let history = try #require(try await fleet.history(of: "a"))
        #expect(history.startsAfter == record.row.snapshotSequence)
        #expect(history.startsAfter > 0)
        #expect(history.entriesBeforeStart == journal.count { ($0.sequence ?? 0) <= history.startsAfter })
        #expect(history.entriesBeforeStart > 0)
        // The snapshot's machine, then each entry after it.
        #expect(history.initial.context.items == Array(1..<Int(history.startsAfter)))
        #expect(history.steps.map(\.sequence) == Array((history.startsAfter + 1)...13))
        #expect(history.steps.last?.snapshot.context.items == Array(1...12))
        #expect(history.stepsLeftOut == 0)
    }

    @Test("a long history keeps the last steps it was asked for, and says how many it left out", arguments: stores)
    func lastSteps(_ kind: StoreKind) async throws {
        let store = try await kind.make()
        let fleet = try orders(store, TestClock(), options: DurableOptions(compaction: .never))
        for item in 1...9 { try await fleet.send(.add(item), to: "a") }
        try await fleet.drain()
        let all = try #require(try await fleet.history(of: "a"))
        #expect(all.steps.map(\.sequence) == Array(1...10))
        #expect(all.stepsLeftOut == 0)
        let last = try #require(try await fleet.history(of: "a", keepingLast: 4))
        #expect(last.steps.map(\.sequence) == [7, 8, 9, 10])
        #expect(last.steps.map(\.snapshot.context.items) == (6...9).map { Array(1...$0) })
        #expect(last.stepsLeftOut == 6)
        #expect(try #require(try await fleet.history(of: "a", keepingLast: 0)).steps.map(\.sequence) == [10])
    }
}
#endif
