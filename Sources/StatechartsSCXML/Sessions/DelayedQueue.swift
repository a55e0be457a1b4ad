import Statecharts

/// The events sessions sent with a delay, earliest first: a binary min-heap on (deadline, order
/// sent), so that arming one and taking the next due cost O(log *n*), however many fall due at
/// the same instant. Cancelling by identifier, and dropping a session's events, cost O(*n*).
struct DelayedQueue: Sendable {
    private var heap: [SCXMLSession.DelayedDelivery] = []

    init() {}

    /// A queue of `items`, in any order.
    init(_ items: [SCXMLSession.DelayedDelivery]) {
        heap = items
        rebuild()
    }

    /// How many events wait.
    var count: Int { heap.count }

    /// The event that falls due first.
    var first: SCXMLSession.DelayedDelivery? { heap.first }

    /// Every waiting event, in the order they fall due.
    var ordered: [SCXMLSession.DelayedDelivery] { heap.sorted(by: Self.precedes) }

    /// Adds an event.
    mutating func insert(_ item: SCXMLSession.DelayedDelivery) {
        heap.append(item)
        siftUp(heap.count - 1)
    }

    /// Removes and returns the event that falls due first, if it is due at `instant`.
    mutating func popFirst(dueAt instant: Duration) -> SCXMLSession.DelayedDelivery? {
        guard let first = heap.first, first.deadline <= instant else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        return first
    }

    /// Removes the events for which `shouldRemove` holds.
    mutating func removeAll(where shouldRemove: (SCXMLSession.DelayedDelivery) -> Bool) {
        let before = heap.count
        heap.removeAll(where: shouldRemove)
        if heap.count != before { rebuild() }
    }

    /// Removes every event.
    mutating func removeAll() { heap.removeAll() }

    static func precedes(_ a: SCXMLSession.DelayedDelivery, _ b: SCXMLSession.DelayedDelivery) -> Bool {
        (a.deadline, a.sequence) < (b.deadline, b.sequence)
    }

    private mutating func rebuild() {
        var index = heap.count / 2 - 1
        while index >= 0 {
            siftDown(index)
            index -= 1
        }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count, Self.precedes(heap[left + 1], heap[left]) { smallest = left + 1 }
            guard Self.precedes(heap[smallest], heap[parent]) else { return }
            heap.swapAt(smallest, parent)
            parent = smallest
        }
    }
}
