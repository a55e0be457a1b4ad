/// Checked invariants: what must hold of a machine after every microstep.
///
/// The engine keeps a machine's state in tables and bit sets that its own code writes directly
/// (the quick step changes the configuration with two masks), so a mistake there would not show
/// until much later, as a wrong answer. In debug builds, which is how the tests run, every
/// microstep ends with `invariantsHold()` under `assert`, and a broken invariant stops the
/// process there with what broke. Release builds compile the checks out: `assert` does not
/// evaluate its condition under optimisation.
///
/// What is checked:
/// - the configuration is legal (SCXML 3.11, `ChartLayout.configurationProblem(_:names:)`);
/// - the queues are consistent: their read positions within them, the timer heap ordered by
///   deadline and arming order, and no timer both alone and in the heap (after a microstep, the
///   first 64 timers; all of them when a step ends, so that a step that arms thousands of timers,
///   up to the pending-timer limit, stays linear in its microsteps);
/// - every timeout belongs to an active state with timeouts, and every delayed event carries its
///   event;
/// - every running invocation belongs to an active state, with an identifier below the next one;
/// - only active states hold state data, and history records only what its state can restore.
extension StateMachine {
    /// Whether the machine's invariants hold; stops the process with the broken one when they do
    /// not. Meant to be called under `assert`, so that release builds never call it.
    ///
    /// - Parameter timers: How many pending timers to check: the first few after a microstep, all
    ///   of them (`Int.max`) when a step ends.
    @usableFromInline
    func invariantsHold(timers: Int = 64) -> Bool {
        guard let problem = invariantProblem(timers: timers) else { return true }
        preconditionFailure("the machine of the chart '\(chart.name)' broke an invariant: \(problem)")
    }

    /// The first invariant the machine breaks, described; `nil` when it breaks none.
    ///
    /// - Parameter timers: How many pending timers, from the first, to check.
    func invariantProblem(timers limit: Int = .max) -> String? {
        let layout = chart.layout
        let names = chart.stateNames
        if !active.isEmpty {
            if let problem = layout.configurationProblem(active, names: names) {
                return "illegal configuration: \(problem)"
            }
        } else if status == .running {
            return "the machine is running with no active state"
        }
        guard let extras else { return nil }
        if let problem = timerProblem(extras.timers, upTo: limit, layout: layout, names: names) { return problem }
        // Until a history first records, there are no values at all.
        for history in 1..<layout.stateCount where layout.kinds[history].isHistory && !extras.history.isEmpty {
            let slot = Int(layout.historySlots[history])
            guard slot < extras.history.count else { return "'\(names[history])' has no history slot" }
            let parent = Int(layout.parents[history])
            for recorded in extras.history[slot] {
                let state = Int(recorded)
                let fits =
                    layout.kinds[history] == .deepHistory
                    ? layout.isDescendant(state, of: parent) && layout.kinds[state].isAtomic
                    : state > 0 && state < layout.stateCount && Int(layout.parents[state]) == parent
                if !fits || layout.kinds[state].isHistory {
                    return "the history '\(names[history])' records '\(names[state])', which it cannot restore"
                }
            }
        }
        guard let annex = extras.annex else { return nil }
        if annex.internalHead > annex.internalQueue.count || annex.externalHead > annex.externalQueue.count {
            return "a queue's read position is past its end"
        }
        var invocationIDs = Set<UInt64>()
        for invocation in annex.liveInvocations {
            let state = Int(invocation.state)
            guard state > 0, state < layout.stateCount, active.contains(state) else {
                return "the invocation \(invocation.id) runs for a state that is not active"
            }
            guard invocation.id < annex.nextInvocation, invocationIDs.insert(invocation.id).inserted else {
                return "the invocation identifier \(invocation.id) is reused"
            }
        }
        for state in 1..<layout.stateCount where layout.dataSlots[state] >= 0 && !active.contains(state) {
            let slot = Int(layout.dataSlots[state])
            if slot < annex.stateData.count, annex.stateData[slot] != nil {
                return "'\(names[state])' holds state data but is not active"
            }
        }
        return nil
    }

    /// What is wrong with the timer queue: its shape, its order, or a timer that belongs to no
    /// active state; among the first `limit` timers of the heap.
    private func timerProblem(
        _ timers: TimerQueue<Event>, upTo limit: Int, layout: ChartLayout, names: [String]
    ) -> String? {
        if timers.hasSole && !timers.heap.isEmpty { return "a timer is both the sole one and in the heap" }
        if timers.heap.count == 1 { return "the timer heap holds one timer, which belongs alone" }
        let checked = timers.heap.indices.prefix(limit)
        for index in checked.dropFirst() where timers.heap[index].precedes(timers.heap[(index - 1) / 2]) {
            return "the timer heap is out of order at \(index)"
        }
        let pending = timers.hasSole ? [timers.sole] : Array(timers.heap[checked])
        for timer in pending {
            if timer.owner < 0 {
                guard timer.isDelayedEvent else { return "a timer is neither a timeout nor a delayed event" }
                if timer.declaredEvent >= 0 {
                    if let problem = ownDeclaredEventProblem(timer) { return problem }
                } else if timer.event == nil && timer.kind < 0 {
                    return "a delayed event's timer has no event"
                }
                if timer.owner < -1 {
                    guard timer.id == nil, timer.attachment == nil,
                        chart.declaredIdentifier(ofOwner: timer.owner) != nil
                    else { return "a delayed event sent as data names no identifier of its chart" }
                }
                continue
            }
            let state = Int(timer.owner)
            guard state < layout.stateCount, timer.event == nil, timer.declaredEvent == -1, timer.attachment == nil,
                timer.id == nil
            else {
                return "a timeout names no state"
            }
            guard active.contains(state), layout.stateFlags[state].contains(.hasTimeouts) else {
                return "a timeout of '\(names[state])' is pending, but the state is not active"
            }
        }
        return nil
    }

    /// What is wrong with a timer whose event is among the machine's own
    /// (``PendingTimer/declaredEvent``): it must hold no event of its own, and name one of the
    /// machine's events, for a send written as data of the chart with the timer's kind and owner.
    private func ownDeclaredEventProblem(_ timer: PendingTimer<Event>) -> String? {
        let position = Int(timer.declaredEvent)
        guard timer.event == nil, let events = extras?.declaredEvents, position < events.count,
            let sends = chart.declaredSends, position < chart.declaredSendCount,
            sends[position].kind == timer.kind, sends[position].owner == timer.owner
        else { return "a delayed event sent as data names no event of its machine" }
        return nil
    }
}
