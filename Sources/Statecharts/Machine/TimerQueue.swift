/// A machine's pending timers, earliest first: state timeouts and delayed events.
///
/// Most machines have at most one timer pending at a time (a state's timeout), so the queue keeps
/// a sole timer inline and allocates nothing for it; from the second on, the timers move into a
/// binary heap ordered by deadline, then by the order they were armed. Inserting and taking the
/// earliest cost O(log *n*); removing by a condition (a state's timeouts on exit, a delayed event
/// by identifier) costs O(*n*).
@usableFromInline
struct TimerQueue<Event> {
    /// The only timer, when there is exactly one (and the heap is empty); otherwise
    /// ``PendingTimer/none``, so that no optional's tag widens the queue.
    @usableFromInline var sole: PendingTimer<Event> = .none
    /// Every timer when there are two or more: a min-heap on (deadline, serial).
    @usableFromInline var heap: [PendingTimer<Event>] = []

    @inlinable
    init() {}

    /// Whether ``sole`` holds a timer.
    @inlinable
    var hasSole: Bool { !sole.isNone }

    /// Whether no timer is pending.
    @inlinable
    var isEmpty: Bool { !hasSole && heap.isEmpty }

    /// How many timers are pending.
    @inlinable
    var count: Int { hasSole ? 1 : heap.count }

    /// The timer that falls due first.
    @inlinable
    var first: PendingTimer<Event>? {
        if hasSole { return sole }
        return heap.first
    }

    /// The deadline of the first timer, or `nil` when there is none; read in place, where
    /// `first?.deadline` would copy the whole timer.
    @inlinable
    var nextDeadline: Int64? {
        if hasSole { return sole.deadline }
        return heap.isEmpty ? nil : heap[0].deadline
    }

    /// The deadline of the first timer; `Int64.max` when there is none.
    @inlinable
    var firstDeadline: Int64 {
        if hasSole { return sole.deadline }
        return heap.isEmpty ? .max : heap[0].deadline
    }

    /// Adds a timer.
    @inlinable
    mutating func insert(_ timer: PendingTimer<Event>) {
        if heap.isEmpty {
            guard hasSole else {
                sole = timer
                return
            }
            heap.append(sole)
            sole = .none
        }
        heap.append(timer)
        siftUp(heap.count - 1)
    }

    /// Adds a state's timeout: a timer that delivers a timeout kind, with no delayed event.
    ///
    /// Into an empty queue, the common case of a state's timeout, it writes the sole slot's fields
    /// in place: the empty slot holds no delayed event (every path that empties it stores
    /// ``PendingTimer/none``, or clears a timeout, which has none), so nothing is released, and no
    /// timer value is built and copied.
    @inlinable
    mutating func insertTimeout(deadline: Int64, serial: UInt64, owner: Int32, kind: Int32) {
        if !hasSole && heap.isEmpty {
            sole.deadline = deadline
            sole.serial = serial
            sole.kind = kind
            sole.owner = owner
            return
        }
        insertOutOfLine(PendingTimer(deadline: deadline, serial: serial, owner: owner, kind: kind))
    }

    /// Adds a delayed event of the user's type: `event`, of kind `kind`, cancelled by `id`.
    ///
    /// Into an empty queue it writes the sole slot's fields in place, as ``insertTimeout`` does:
    /// copying a whole timer in and out of the slot would go through its type's value witnesses.
    /// The empty slot holds no attachment (it is ``PendingTimer/none``), so none is written.
    @inlinable
    mutating func insertDelayedEvent(deadline: Int64, serial: UInt64, kind: Int32, event: Event, id: String?) {
        if !hasSole && heap.isEmpty {
            sole.deadline = deadline
            sole.serial = serial
            sole.kind = kind
            sole.owner = -1
            sole.event = event
            sole.id = id
            return
        }
        insertOutOfLine(PendingTimer(deadline: deadline, serial: serial, delivering: .event(event, kind: kind), id: id))
    }

    /// Adds a delayed event sent as data: `event`, of kind `kind`, whose identifier the chart
    /// interned as `owner` (``DeclaredIdentifier/owner(ofNumber:)``, or -1 for none).
    ///
    /// No identifier string is stored, so none is retained; into an empty queue it writes the sole
    /// slot's fields in place, as ``insertDelayedEvent(deadline:serial:kind:event:id:)`` does.
    @inlinable
    mutating func insertDeclaredEvent(deadline: Int64, serial: UInt64, kind: Int32, event: Event, owner: Int32) {
        if !hasSole && heap.isEmpty {
            sole.deadline = deadline
            sole.serial = serial
            sole.kind = kind
            sole.owner = owner
            sole.event = event
            return
        }
        insertOutOfLine(PendingTimer(deadline: deadline, serial: serial, owner: owner, kind: kind, event: event))
    }

    /// ``insertDeclaredEvent(deadline:serial:kind:event:owner:)`` for a machine that holds its own
    /// events: the timer says where its event is among them, `position`
    /// (``PendingTimer/declaredEvent``), and holds neither the event nor a string, so arming it
    /// retains nothing.
    ///
    /// A function of its own, not an optional event given to the other: with one function, the
    /// step that arms these timers was no longer inlined into its caller, which cost 11
    /// instructions an event on the interpreted media player.
    @inlinable
    mutating func insertOwnDeclaredEvent(deadline: Int64, serial: UInt64, kind: Int32, position: Int32, owner: Int32) {
        if !hasSole && heap.isEmpty {
            sole.deadline = deadline
            sole.serial = serial
            sole.kind = kind
            sole.owner = owner
            sole.declaredEvent = position
            return
        }
        var timer = PendingTimer<Event>(deadline: deadline, serial: serial, owner: owner, kind: kind)
        timer.declaredEvent = position
        insertOutOfLine(timer)
    }

    /// Empties the sole slot in place, releasing what a delayed event held.
    @inlinable
    mutating func clearSole() {
        clearSoleDeclaredEvent()
        sole.attachment = nil
        sole.id = nil
    }

    /// ``insert(_:)`` out of line, so that the fast paths that fall back on it stay small enough
    /// to inline.
    @inlinable
    @inline(never)
    mutating func insertOutOfLine(_ timer: PendingTimer<Event>) {
        insert(timer)
    }

    /// Whether a timeout of the state `owner` (never a delayed event, whose owner is negative) is
    /// pending.
    @inlinable
    func hasTimeouts(of owner: Int32) -> Bool {
        if hasSole { return sole.owner == owner }
        return heap.contains { $0.owner == owner }
    }

    /// Removes the timeouts of the state `owner` (a state's index, never negative).
    ///
    /// When the sole timer is the state's timeout, it empties the slot in place: a timeout holds no
    /// delayed event, so the slot is left as ``PendingTimer/none`` without releasing anything.
    @inlinable
    mutating func removeTimeouts(of owner: Int32) {
        if hasSole {
            guard sole.owner == owner else { return }
            sole.deadline = .max
            sole.serial = 0
            sole.kind = 0
            sole.owner = .min
            return
        }
        removeTimeoutsFromHeap(of: owner)
    }

    /// ``removeTimeouts(of:)`` when two or more timers are pending, out of line.
    @inlinable
    @inline(never)
    mutating func removeTimeoutsFromHeap(of owner: Int32) {
        removeAll { $0.owner == owner }
    }

    /// What a cancel of the string `id` finds pending before it knows the identifier's number in
    /// the chart: nothing, only delayed events sent with the string (whose owner is -1), or a send
    /// written as data, whose identifier only the chart knows.
    @inlinable
    func cancelMatch(ofString id: String) -> CancelMatch {
        if hasSole {
            if sole.owner == -1 { return sole.id == id ? .sentWithString : .nothing }
            // Not `none`, whose owner is `Int32.min`: the queue has a sole timer.
            return sole.owner < -1 ? .sentAsData : .nothing
        }
        return heapCancelMatch(ofString: id)
    }

    /// ``cancelMatch(ofString:)`` when two or more timers are pending, out of line.
    @inlinable
    @inline(never)
    func heapCancelMatch(ofString id: String) -> CancelMatch {
        var match = CancelMatch.nothing
        for timer in heap {
            if timer.owner < -1 { return .sentAsData }
            if timer.owner == -1 && timer.id == id { match = .sentWithString }
        }
        return match
    }

    /// Whether a delayed event sent with the string identifier `id` is pending (one whose owner is
    /// -1: the chart has no send written as data with `id`, so no other timer can match).
    ///
    /// The identifiers are compared as strings, never hashed: an identifier written as a literal
    /// is a small string or the literal's own storage, so that comparing it with the same literal
    /// compares two words.
    @inlinable
    func hasDelayedEvents(id: String) -> Bool {
        if hasSole { return sole.owner == -1 && sole.id == id }
        return heap.contains { $0.owner == -1 && $0.id == id }
    }

    /// Removes the delayed events sent with the string identifier `id`, and returns how many it
    /// removed.
    ///
    /// When the sole timer is the one, the slot is emptied in place.
    @inlinable
    mutating func removeDelayedEvents(id: String) -> Int {
        if hasSole {
            guard sole.owner == -1 && sole.id == id else { return 0 }
            clearSole()
            return 1
        }
        return removeDelayedEventsFromHeap(id: id)
    }

    /// ``removeDelayedEvents(id:)`` when two or more timers are pending, out of line.
    @inlinable
    @inline(never)
    mutating func removeDelayedEventsFromHeap(id: String) -> Int {
        removeAll { $0.owner == -1 && $0.id == id }
    }

    /// Whether a delayed event with identifier `id` is pending, where `owner` (-2 or less) is the
    /// owner of the chart's sends written as data with `id`: one of those, found by comparing
    /// integers, or one sent with the string (``PendingTimer/isCancelled(byID:owner:)``).
    @inlinable
    func hasDelayedEvents(id: String, owner: Int32) -> Bool {
        if hasSole { return sole.isCancelled(byID: id, owner: owner) }
        return heap.contains { $0.isCancelled(byID: id, owner: owner) }
    }

    /// Removes the delayed events with identifier `id`, where `owner` (-2 or less) is the owner of
    /// the chart's sends written as data with `id`, and returns how many it removed.
    ///
    /// When the sole timer is a send written as data, the slot is emptied in place: it holds no
    /// identifier string, so only its event is released.
    @inlinable
    mutating func removeDelayedEvents(id: String, owner: Int32) -> Int {
        if hasSole {
            if sole.owner == owner {
                clearSoleDeclaredEvent()
                return 1
            }
            return removeDelayedEvents(id: id)
        }
        return removeDelayedEventsFromHeap(id: id, owner: owner)
    }

    /// Empties the sole slot, which holds a send written as data, in place: such a timer holds no
    /// identifier string and no attachment, so only its event is released.
    @inlinable
    mutating func clearSoleDeclaredEvent() {
        sole.deadline = .max
        sole.serial = 0
        sole.kind = 0
        sole.owner = .min
        sole.event = nil
        sole.declaredEvent = -1
    }

    /// ``removeDelayedEvents(id:owner:)`` when two or more timers are pending, out of line.
    @inlinable
    @inline(never)
    mutating func removeDelayedEventsFromHeap(id: String, owner: Int32) -> Int {
        removeAll { $0.isCancelled(byID: id, owner: owner) }
    }

    /// Removes and returns the timer that falls due first; the queue must not be empty.
    @inlinable
    mutating func removeFirst() -> PendingTimer<Event> {
        if hasSole {
            let timer = sole
            sole = .none
            return timer
        }
        let first = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        if heap.count == 1 {
            sole = heap.removeLast()
        }
        return first
    }

    /// Removes the timers for which `shouldRemove` holds, and returns how many it removed.
    @inlinable
    @discardableResult
    mutating func removeAll(where shouldRemove: (PendingTimer<Event>) -> Bool) -> Int {
        if hasSole {
            guard shouldRemove(sole) else { return 0 }
            sole = .none
            return 1
        }
        let before = heap.count
        heap.removeAll(where: shouldRemove)
        let removed = before - heap.count
        if removed > 0 { rebuild() }
        return removed
    }

    /// Whether a timer satisfies `predicate`.
    @inlinable
    func contains(where predicate: (PendingTimer<Event>) -> Bool) -> Bool {
        if hasSole { return predicate(sole) }
        return heap.contains(where: predicate)
    }

    /// Removes every timer.
    @inlinable
    mutating func removeAll() {
        sole = .none
        heap.removeAll()
    }

    /// Every timer, in the order they fall due.
    var ordered: [PendingTimer<Event>] {
        if hasSole { return [sole] }
        return heap.sorted { $0.precedes($1) }
    }

    // MARK: - The heap

    /// After removals: restores the heap order, or the sole timer when one is left.
    @inlinable
    mutating func rebuild() {
        if heap.count == 1 {
            sole = heap.removeLast()
            return
        }
        var index = heap.count / 2 - 1
        while index >= 0 {
            siftDown(index)
            index -= 1
        }
    }

    @inlinable
    mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    @inlinable
    mutating func siftDown(_ start: Int) {
        var parent = start
        let count = heap.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { return }
            let right = left + 1
            let child = right < count && heap[right].precedes(heap[left]) ? right : left
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            parent = child
        }
    }
}
