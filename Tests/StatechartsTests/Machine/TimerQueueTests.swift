import StatechartsTesting
import Testing

@testable import Statecharts

/// A machine's timer queue keeps a sole timer inline and writes a state's timeout into that slot
/// field by field: on any sequence of arming, cancelling and firing, it holds what a plain sorted
/// list holds, and an emptied slot is exactly ``PendingTimer/none``.
@Suite struct TimerQueueTests {
    /// A timer as the model keeps it: what it fires, in order.
    struct ModelTimer: Equatable {
        var deadline: Int64
        var serial: UInt64
        var owner: Int32
        var id: String?
    }

    static func model(of timer: PendingTimer<Int>) -> ModelTimer {
        ModelTimer(deadline: timer.deadline, serial: timer.serial, owner: timer.owner, id: timer.id)
    }

    static func sorted(_ timers: [ModelTimer]) -> [ModelTimer] {
        timers.sorted { ($0.deadline, $0.serial) < ($1.deadline, $1.serial) }
    }

    @Test("random arming, cancelling and firing hold what a sorted list holds", arguments: 0..<40)
    func matchesASortedList(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var queue = TimerQueue<Int>()
        var model: [ModelTimer] = []
        var serial: UInt64 = 0
        for _ in 0..<300 {
            switch generator.next() % 6 {
            case 0, 1:
                // A state's timeout, the fast path when the queue is empty.
                let deadline = Int64(generator.next() % 50)
                let owner = Int32(generator.next() % 5)
                queue.insertTimeout(deadline: deadline, serial: serial, owner: owner, kind: owner + 10)
                model.append(ModelTimer(deadline: deadline, serial: serial, owner: owner, id: nil))
                serial += 1
            case 2:
                // A delayed event, which no state's cancelling may remove: written in place, or
                // built and inserted.
                let deadline = Int64(generator.next() % 50)
                let id = "send\(generator.next() % 3)"
                if generator.next() % 2 == 0 {
                    queue.insertDelayedEvent(
                        deadline: deadline, serial: serial, kind: 3, event: 7, id: id)
                } else {
                    queue.insert(
                        PendingTimer(deadline: deadline, serial: serial, delivering: .event(7, kind: 3), id: id))
                }
                model.append(ModelTimer(deadline: deadline, serial: serial, owner: -1, id: id))
                serial += 1
            case 3:
                let owner = Int32(generator.next() % 5)
                #expect(queue.hasTimeouts(of: owner) == model.contains { $0.owner == owner })
                queue.removeTimeouts(of: owner)
                model.removeAll { $0.owner == owner }
            case 4:
                let id = "send\(generator.next() % 3)"
                let pending = model.filter { $0.owner < 0 && $0.id == id }.count
                #expect(queue.hasDelayedEvents(id: id) == (pending > 0))
                #expect(queue.removeDelayedEvents(id: id) == pending)
                model.removeAll { $0.owner < 0 && $0.id == id }
            default:
                guard !model.isEmpty else {
                    #expect(queue.isEmpty)
                    continue
                }
                let fired = queue.removeFirst()
                let expected = Self.sorted(model)[0]
                #expect(Self.model(of: fired) == expected)
                // A delayed event keeps its event; a timeout has none.
                #expect(fired.signal.event == (expected.owner < 0 ? 7 : nil))
                #expect(fired.signal.kind == (expected.owner < 0 ? 3 : expected.owner + 10))
                model.removeAll { $0 == expected }
            }
            #expect(queue.count == model.count)
            #expect(queue.ordered.map(Self.model) == Self.sorted(model))
            #expect(queue.firstDeadline == (Self.sorted(model).first?.deadline ?? .max))
            if !queue.hasSole {
                // The empty slot is `.none` to the last field, so that writing a timeout into it
                // releases nothing and reads nothing stale.
                #expect(queue.sole.deadline == .max)
                #expect(queue.sole.serial == 0)
                #expect(queue.sole.owner == .min)
                #expect(queue.sole.kind == 0)
                #expect(queue.sole.event == nil)
                #expect(queue.sole.attachment == nil)
                #expect(queue.sole.id == nil)
            }
        }
    }

    @Test("cancelling a state's timeouts leaves a sole delayed event in place")
    func cancellingKeepsADelayedEvent() {
        var queue = TimerQueue<Int>()
        queue.insertDelayedEvent(deadline: 5, serial: 0, kind: 3, event: 7, id: "a")
        #expect(!queue.hasTimeouts(of: 0))
        queue.removeTimeouts(of: 0)
        #expect(queue.count == 1)
        #expect(queue.first?.id == "a")
        #expect(queue.first?.signal.event == 7)
    }

    @Test("a timeout written into the empty slot fires with its own kind, then leaves the slot empty")
    func soleTimeoutRoundTrip() {
        var queue = TimerQueue<Int>()
        queue.insertTimeout(deadline: 9, serial: 4, owner: 2, kind: 12)
        #expect(queue.hasSole)
        #expect(queue.hasTimeouts(of: 2))
        #expect(!queue.hasTimeouts(of: 1))
        let fired = queue.removeFirst()
        #expect(fired.deadline == 9)
        #expect(fired.serial == 4)
        #expect(fired.owner == 2)
        #expect(fired.signal.kind == 12)
        #expect(fired.event == nil)
        #expect(fired.id == nil)
        #expect(queue.isEmpty)
    }
}
