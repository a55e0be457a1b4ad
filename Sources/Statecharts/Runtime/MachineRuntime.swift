/// The effects around a ``StateMachine``: its clock, its timer in a ``TimerWheel``, the tasks of
/// its invocations and the streams of its snapshots.
///
/// Shared by ``StatechartActor`` and ``IsolatedStatechart``, which guarantee that one call at a
/// time reaches it, on their executor. The semantics stay in ``StateMachine``; this class only
/// maps its virtual time onto a clock and its invocation requests onto tasks.
final class MachineRuntime<State: Hashable & Sendable, Event: StatechartEvent, Context: Sendable> {
    typealias Snapshot = MachineSnapshot<State, Context>

    var machine: StateMachine<State, Event, Context>
    let timers: TimerWheel
    /// The wheel's time when the machine was made: the machine's time zero.
    let origin: Duration
    let inspect: (@Sendable (MachineInspection<State, Event>) -> Void)?
    /// Starts an invocation's task, which reports back through its owner.
    var spawn: ((InvocationStart<State, Event, Context>) -> Task<Void, Never>)?
    /// The owner, called back by the wheel.
    weak var target: (any TimerWheelTarget)?

    /// Whether ``start()`` has run: a machine given already running is connected by its first call.
    private var connected = false
    private var timer: TimerHandle?
    private var armedDeadline: Int64?
    private var tasks: [InvocationID: Task<Void, Never>] = [:]
    private var streams: [AsyncStream<Snapshot>.Continuation] = []

    init(
        machine: StateMachine<State, Event, Context>, timers: TimerWheel,
        inspect: (@Sendable (MachineInspection<State, Event>) -> Void)?
    ) {
        self.machine = machine
        self.timers = timers
        // A machine that has run already (restored from an archive) continues from its own time.
        origin = timers.now - machine.now
        self.inspect = inspect
    }

    deinit {
        if let timer { timers.cancel(timer) }
        for task in tasks.values { task.cancel() }
        for stream in streams { stream.finish() }
    }

    /// The machine's time on the clock now.
    var elapsed: Duration { timers.now - origin }

    // MARK: - Operations

    func start() throws(MachineError<State, Event>) {
        defer { afterStep() }
        if machine.status != .notStarted && !connected {
            // A machine given already running: connect its timers and invocations.
            connected = true
            try catchUp()
            return
        }
        connected = true
        try catchUp()
        if let inspect {
            var observer = InspectionObserver<State, Event>(inspect: inspect)
            try machine.start(observer: &observer)
        } else {
            try machine.start()
        }
    }

    func send(_ event: Event) throws(MachineError<State, Event>) -> Bool {
        defer { afterStep() }
        try catchUp()
        if let inspect {
            var observer = InspectionObserver<State, Event>(inspect: inspect)
            return try machine.send(event, observer: &observer)
        }
        return try machine.send(event)
    }

    /// The wheel says a timer is due: processes every timer due by now.
    func timerFired() {
        timer = nil
        armedDeadline = nil
        defer { afterStep() }
        do { try catchUp() } catch { inspect?(.failed(error)) }
    }

    func deliver(_ outcome: InvocationOutcome<Event>, from id: InvocationID) {
        tasks[id] = nil
        defer { afterStep() }
        do {
            try catchUp()
            if let inspect {
                var observer = InspectionObserver<State, Event>(inspect: inspect)
                try machine.deliver(outcome, from: id, observer: &observer)
            } else {
                try machine.deliver(outcome, from: id)
            }
        } catch {
            inspect?(.failed(error))
        }
    }

    /// The machine with its time moved to the clock's now (firing the timers due by then): what
    /// an archive of a live machine records.
    func currentMachine() -> StateMachine<State, Event, Context> {
        if machine.status == .running {
            defer { afterStep() }
            do { try catchUp() } catch { inspect?(.failed(error)) }
        }
        return machine
    }

    func cancelDelayedEvents(id: String) -> Int {
        defer { afterStep() }
        return machine.cancelDelayedEvents(id: id)
    }

    func snapshots(
        bufferingPolicy: AsyncStream<Snapshot>.Continuation.BufferingPolicy
    ) -> AsyncStream<Snapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: Snapshot.self, bufferingPolicy: bufferingPolicy)
        continuation.yield(machine.snapshot)
        streams.append(continuation)
        return stream
    }

    // MARK: - Effects after a step

    /// Fires the machine's timers that fell due on the clock.
    /// Before the machine starts, this only sets its time.
    private func catchUp() throws(MachineError<State, Event>) {
        if let inspect {
            var observer = InspectionObserver<State, Event>(inspect: inspect)
            try machine.advance(to: elapsed, observer: &observer)
        } else {
            try machine.advance(to: elapsed)
        }
    }

    /// Starts and cancels invocation tasks, re-arms the timer and publishes a snapshot.
    private func afterStep() {
        for request in machine.takeInvocationRequests() {
            switch request {
            case .start(let start):
                inspect?(.invocationStarted(start.id, name: start.name, state: start.state))
                if let spawn { tasks[start.id] = spawn(start) }
            case .cancel(let id):
                inspect?(.invocationCancelled(id))
                tasks.removeValue(forKey: id)?.cancel()
            }
        }
        rearm()
        if !streams.isEmpty {
            let snapshot = machine.snapshot
            streams.removeAll { stream in
                if case .terminated = stream.yield(snapshot) { return true }
                return false
            }
        }
    }

    /// Keeps one wheel entry, at the machine's earliest pending deadline.
    private func rearm() {
        let deadline = machine.status == .running ? machine.nextDeadline?.clampedNanoseconds : nil
        guard deadline != armedDeadline else { return }
        if let timer { timers.cancel(timer) }
        timer = nil
        armedDeadline = deadline
        guard let deadline, let target else { return }
        timer = timers.arm(at: origin + .nanoseconds(deadline), for: target)
    }
}
