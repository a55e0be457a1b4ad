/// The timers of many machines on one clock: a hashed timing wheel with one sleeping task.
///
/// Every live machine (``StatechartActor``, ``IsolatedStatechart``) keeps at most one entry here,
/// for its earliest pending timer, so arming and cancelling cost O(1) whatever the number of
/// machines, and a million machines with armed timeouts share one task that sleeps until the next
/// occupied slot. A timer fires at most one ``resolution`` after its deadline, never before.
///
/// Machines on the real clock share ``continuous``. To test timing, make a wheel on a test clock
/// (swift-clocks' `TestClock` works), advance the clock, then `await` ``settle()``:
///
/// ```swift
/// let clock = TestClock()
/// let timers = TimerWheel(clock: clock)
/// let machine = StatechartActor(chart, timers: timers)
/// try await machine.start()
/// await clock.advance(by: .seconds(5))
/// await timers.settle()   // every timer due by now has fired and been processed
/// ```
public final class TimerWheel: Sendable {
    /// The wheel of the `ContinuousClock`, shared by every machine that is not given one.
    public static let continuous = TimerWheel(clock: ContinuousClock())

    /// The granularity of deadlines.
    public let resolution: Duration

    let elapsedTime: @Sendable () -> Duration
    let sleepUntil: @Sendable (Duration) async throws -> Void
    let ticks: Int64
    let state: Locked<WheelState>

    /// A wheel on `clock`.
    ///
    /// - Parameters:
    ///   - clock: Any clock measured in `Duration`: `ContinuousClock`, `SuspendingClock`, a test clock.
    ///   - resolution: The granularity of deadlines (default 1 ms); at least 1 µs.
    ///   - slots: The number of slots of the wheel (default 4,096), rounded up to a power of two. A
    ///     turn of the wheel is `slots × resolution`; timers further away wait for later turns.
    public init<C: Clock>(clock: C, resolution: Duration = .milliseconds(1), slots: Int = 4096)
    where C.Duration == Duration {
        let origin = clock.now
        elapsedTime = { origin.duration(to: clock.now) }
        sleepUntil = { offset in try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil) }
        self.resolution = max(resolution, .microseconds(1))
        ticks = max(self.resolution.clampedNanoseconds, 1)
        var slotCount = 1
        while slotCount < max(slots, 2) { slotCount <<= 1 }
        state = Locked(WheelState(slotCount: slotCount))
    }

    /// The time since the wheel was made, on its clock.
    public var now: Duration { elapsedTime() }

    /// How many timers are armed.
    public var count: Int { state.withLock { $0.count } }

    /// Waits until every timer due by now has fired and its machine has processed it.
    ///
    /// For tests on a manual clock: advance the clock, then settle. Timers armed while settling
    /// that are due by then fire too.
    public func settle() async {
        while true {
            let nowTick = tick(atOrBefore: now)
            let (ready, idle): (Bool, Bool) = state.withLock { state in
                let due = state.hasEntry(dueBy: nowTick)
                return (state.firing == 0 && !due, state.firing == 0 && due)
            }
            if ready { return }
            if idle {
                // Timers are due and none is firing. The driver may have gone to sleep on a deadline
                // the clock had just reached (a manual clock can suspend a sleep until exactly now
                // until it is advanced again): a fresh driver reads the clock after it moved.
                restartDriver(until: nowTick)
            }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if state.firing == 0 && !state.hasEntry(dueBy: nowTick) { return true }
                    state.settleWaiters.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }

    // MARK: - Arming and cancelling

    /// Arms a timer that calls `target.timerFired()` at `deadline` (time since the wheel was made).
    package func arm(at deadline: Duration, for target: any TimerWheelTarget) -> TimerHandle {
        arm(at: deadline, forTargetObject: target)
    }

    /// Arms a timer that calls `object.timerFired()` at `deadline`: `object` must be a
    /// ``TimerWheelTarget``. For a caller that holds its target without a count, and lends it.
    package func arm(at deadline: Duration, forTargetObject object: AnyObject) -> TimerHandle {
        let target = object
        let deadlineTick = tick(atOrAfter: deadline)
        let (handle, restart) = state.withLock { state in
            let handle = state.insert(tick: deadlineTick, target: target)
            let restart = state.driver == nil || max(deadlineTick, state.processedTick + 1) < state.driverTick
            return (handle, restart)
        }
        if restart { restartDriver(until: deadlineTick) }
        return handle
    }

    /// Cancels a timer; a timer that fired or was cancelled already is ignored.
    package func cancel(_ handle: TimerHandle) {
        let waiters = state.withLock { state in
            state.remove(handle)
            return state.takeSettleWaiters()
        }
        // A waiter may have been waiting for the timer just cancelled: let it look again.
        for waiter in waiters { waiter.resume() }
    }

    func tick(atOrAfter time: Duration) -> Int64 {
        let nanoseconds = time.clampedNanoseconds
        let (quotient, remainder) = nanoseconds.quotientAndRemainder(dividingBy: ticks)
        return remainder > 0 ? quotient + 1 : quotient
    }

    func tick(atOrBefore time: Duration) -> Int64 {
        let nanoseconds = time.clampedNanoseconds
        let (quotient, remainder) = nanoseconds.quotientAndRemainder(dividingBy: ticks)
        return remainder < 0 ? quotient - 1 : quotient
    }

    // MARK: - The driver

    /// Replaces the sleeping task with one that sleeps until the earliest occupied slot, `tick` or
    /// before. Until the new task runs, timers armed for later need no new driver.
    func restartDriver(until tick: Int64) {
        let (generation, previous) = state.withLock { state in
            state.driverGeneration &+= 1
            state.driverTick = max(tick, state.processedTick + 1)
            return (state.driverGeneration, state.driver)
        }
        previous?.cancel()
        let task = Task.detached { [weak self] in
            guard let self else { return }
            await self.drive(generation: generation)
        }
        state.withLock { state in
            if state.driverGeneration == generation { state.driver = task }
        }
    }

    private func drive(generation: UInt64) async {
        while !Task.isCancelled {
            let nowTick = tick(atOrBefore: now)
            let (next, waiters): (Int64?, [CheckedContinuation<Void, Never>]) = state.withLock { state in
                // A newer driver took over.
                guard state.driverGeneration == generation else { return (nil, []) }
                guard state.count > 0 else {
                    state.driver = nil
                    state.driverTick = .max
                    return (nil, state.takeSettleWaiters())
                }
                let next = state.nextOccupiedTick(after: state.processedTick)
                state.driverTick = next
                return (next, [])
            }
            for waiter in waiters { waiter.resume() }
            guard let next else { return }
            if next > nowTick {
                do {
                    try await sleepUntil(.nanoseconds(next.multipliedClamped(by: ticks)))
                } catch {
                    return  // cancelled: a newer driver took over
                }
            }
            await fire(upTo: max(next, tick(atOrBefore: now)))
        }
    }

    /// Removes the timers due by `tick` and calls their targets, one at a time.
    private func fire(upTo tick: Int64) async {
        let objects: [AnyObject] = state.withLock { state in
            state.firing += 1
            return state.removeDue(upTo: tick)
        }
        // Every target is a `TimerWheelTarget`: the cast only recovers the protocol's witness,
        // which the wheel does not keep, to keep its entries small.
        let targets = objects.compactMap { $0 as? any TimerWheelTarget }
        if targets.count == 1 {
            await targets[0].timerFired()
        } else if !targets.isEmpty {
            // Machines are independent: let them process their timers on every core.
            await withTaskGroup(of: Void.self) { group in
                for target in targets { group.addTask { await target.timerFired() } }
            }
        }
        let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.firing -= 1
            // Waiters re-check what is due when they resume.
            return state.takeSettleWaiters()
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// What a ``TimerWheel`` calls when a timer fires.
@usableFromInline
package protocol TimerWheelTarget: AnyObject, Sendable {
    /// Called once per armed timer, when its deadline has come.
    func timerFired() async
}

/// A timer armed in a ``TimerWheel``.
@usableFromInline
package struct TimerHandle: Hashable, Sendable {
    @usableFromInline var index: Int32
    @usableFromInline var generation: UInt32

    @inlinable
    init(index: Int32, generation: UInt32) {
        self.index = index
        self.generation = generation
    }
}

/// The wheel's entries, in arrays linked by index, guarded by the wheel's mutex.
struct WheelState: ~Copyable {
    /// The first entry of each slot, or -1.
    var heads: [Int32]
    var deadlines: [Int64] = []
    var next: [Int32] = []
    var previous: [Int32] = []
    var generations: [UInt32] = []
    var targets: [WeakTarget] = []
    var freeHead: Int32 = -1
    var count = 0
    /// Every tick up to this one has been processed.
    var processedTick: Int64 = -1
    var driver: Task<Void, Never>?
    /// Counts drivers started; only the latest one runs.
    var driverGeneration: UInt64 = 0
    /// The tick the driver sleeps until.
    var driverTick: Int64 = .max
    /// How many drivers are calling targets now (two overlap briefly when one replaces the other).
    var firing = 0
    var settleWaiters: [CheckedContinuation<Void, Never>] = []
    let mask: Int64

    init(slotCount: Int) {
        heads = Array(repeating: -1, count: slotCount)
        mask = Int64(slotCount - 1)
    }

    mutating func insert(tick requested: Int64, target: AnyObject) -> TimerHandle {
        // A deadline already processed fires at the next tick, not a turn later.
        let tick = max(requested, processedTick + 1)
        let index: Int32
        if freeHead >= 0 {
            index = freeHead
            freeHead = next[Int(index)]
            deadlines[Int(index)] = tick
            targets[Int(index)] = WeakTarget(target: target)
        } else {
            index = Int32(deadlines.count)
            deadlines.append(tick)
            next.append(-1)
            previous.append(-1)
            generations.append(0)
            targets.append(WeakTarget(target: target))
        }
        let slot = Int(tick & mask)
        let head = heads[slot]
        next[Int(index)] = head
        previous[Int(index)] = -1
        if head >= 0 { previous[Int(head)] = index }
        heads[slot] = index
        count += 1
        return TimerHandle(index: index, generation: generations[Int(index)])
    }

    /// The continuations of ``TimerWheel/settle()`` calls waiting now, removed from the state.
    mutating func takeSettleWaiters() -> [CheckedContinuation<Void, Never>] {
        guard !settleWaiters.isEmpty else { return [] }
        let waiters = settleWaiters
        settleWaiters.removeAll()
        return waiters
    }

    mutating func remove(_ handle: TimerHandle) {
        let index = Int(handle.index)
        guard index < generations.count, generations[index] == handle.generation else { return }
        unlink(index)
    }

    /// Unlinks an armed entry and puts it on the free list; its handle goes stale.
    mutating func unlink(_ index: Int) {
        let before = previous[index]
        let after = next[index]
        if before >= 0 { next[Int(before)] = after } else { heads[Int(deadlines[index] & mask)] = after }
        if after >= 0 { previous[Int(after)] = before }
        generations[index] &+= 1
        targets[index] = WeakTarget(target: nil)
        next[index] = freeHead
        previous[index] = -1
        freeHead = Int32(index)
        count -= 1
    }

    /// The first tick after `tick` whose slot holds an entry (due then or in a later turn).
    func nextOccupiedTick(after tick: Int64) -> Int64 {
        let slotCount = mask + 1
        for offset in 1...slotCount where heads[Int((tick + offset) & mask)] >= 0 {
            // An entry in this slot may belong to a later turn; the driver then wakes once per turn.
            return tick + offset
        }
        return tick + slotCount
    }

    func hasEntry(dueBy tick: Int64) -> Bool {
        guard count > 0, tick > processedTick else { return false }
        let span = min(tick - processedTick, mask + 1)
        for offset in 1...span {
            var index = heads[Int((processedTick + offset) & mask)]
            while index >= 0 {
                if deadlines[Int(index)] <= tick { return true }
                index = next[Int(index)]
            }
        }
        return false
    }

    /// Unlinks every entry due by `tick` and returns the targets still alive.
    mutating func removeDue(upTo tick: Int64) -> [AnyObject] {
        guard tick > processedTick else { return [] }
        var due: [AnyObject] = []
        let span = min(tick - processedTick, mask + 1)
        for offset in 1...span {
            var index = heads[Int((processedTick + offset) & mask)]
            while index >= 0 {
                let following = next[Int(index)]
                if deadlines[Int(index)] <= tick {
                    if let target = targets[Int(index)].target { due.append(target) }
                    unlink(Int(index))
                }
                index = following
            }
        }
        processedTick = tick
        return due
    }
}

/// A weak reference to a timer's target (a ``TimerWheelTarget``): a released machine's timer fires
/// into nothing. An `AnyObject`, one word, where the protocol's existential would take two.
struct WeakTarget {
    weak var target: AnyObject?

    init(target: AnyObject?) { self.target = target }
}

extension Int64 {
    /// The product, saturating instead of overflowing.
    func multipliedClamped(by other: Int64) -> Int64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }
}
