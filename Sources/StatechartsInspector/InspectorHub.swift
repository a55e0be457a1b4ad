#if Inspector
import Foundation
import Statecharts

/// The server's state: the timeline, the pages connected, and the real-time clock.
actor InspectorHub {
    let target: any InspectorTarget
    let timelineLimit: Int
    /// How many bytes of JSON the timeline's steps may take together.
    let timelineBytes: Int
    private(set) var timeline: [InspectorStep] = []
    /// The size of each step of ``timeline`` as JSON, in the same order, and their sum.
    private var stepBytes: [Int] = []
    private var totalBytes = 0
    private var subscribers: [Int: AsyncStream<String>.Continuation] = [:]
    private var nextSubscriber = 0
    private var realTime: Task<Void, Never>?
    private var stopped = false
    /// How many steps the target has reported, counted as it reports them, from any task.
    private nonisolated let reported = Locked(0)
    /// How many of them the timeline has recorded.
    private var recorded = 0
    /// Requests waiting for the timeline to record the steps reported before a count.
    private var settling: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(target: any InspectorTarget, timelineLimit: Int, timelineBytes: Int = 64 << 20) {
        self.target = target
        self.timelineLimit = timelineLimit
        self.timelineBytes = timelineBytes
    }

    /// Adds a step to the timeline and tells the pages. A step with the index of the newest one
    /// replaces it (the machine's time moved on with nothing else happening); a step with an
    /// earlier index is a resumption: the steps from its index on are replaced by it.
    func record(_ step: InspectorStep) {
        let message = Self.encode(InspectorMessage(type: "step", step: step))
        guard let last = timeline.last, step.index <= last.index else {
            append(step, bytes: message.utf8.count)
            broadcast(message)
            return
        }
        while let newest = timeline.last, newest.index >= step.index {
            timeline.removeLast()
            totalBytes -= stepBytes.removeLast()
        }
        append(step, bytes: message.utf8.count)
        if step.index == last.index {
            broadcast(message)
        } else {
            broadcast(InspectorMessage(type: "timeline", steps: timeline, realTime: realTime != nil))
        }
    }

    /// Appends a step, then drops the oldest while the timeline holds more steps or bytes than it
    /// may: a machine with large data stepping fast keeps memory bounded. The newest step stays.
    private func append(_ step: InspectorStep, bytes: Int) {
        timeline.append(step)
        stepBytes.append(bytes)
        totalBytes += bytes
        var dropped = 0
        while timeline.count - dropped > 1,
            timeline.count - dropped > timelineLimit || totalBytes > timelineBytes
        {
            totalBytes -= stepBytes[dropped]
            dropped += 1
        }
        if dropped > 0 {
            timeline.removeFirst(dropped)
            stepBytes.removeFirst(dropped)
        }
    }

    /// The target reported a step: called before the step is handed to the timeline.
    nonisolated func noteReported() { reported.withLock { $0 += 1 } }

    /// The timeline recorded a reported step.
    func noteRecorded() {
        recorded += 1
        settling.removeAll { waiting in
            guard waiting.count <= recorded else { return false }
            waiting.continuation.resume()
            return true
        }
    }

    /// Returns once the timeline has recorded every step reported so far: a request that made
    /// steps answers after the pages have been told of them, and a later `GET /api/timeline`
    /// shows them.
    func settled() async {
        let count = reported.withLock { $0 }
        guard recorded < count, !stopped else { return }
        await withCheckedContinuation { settling.append((count, $0)) }
    }

    /// A page connected: its messages, the whole timeline first.
    func subscribe() -> (id: Int, messages: AsyncStream<String>) {
        let (messages, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(256))
        let id = nextSubscriber
        nextSubscriber += 1
        continuation.yield(Self.encode(InspectorMessage(type: "timeline", steps: timeline, realTime: realTime != nil)))
        if stopped {
            continuation.finish()
        } else {
            subscribers[id] = continuation
        }
        return (id, messages)
    }

    func unsubscribe(_ id: Int) {
        subscribers.removeValue(forKey: id)?.finish()
    }

    /// Runs the machine's virtual clock with the wall clock, 10 times a second, or stops it: once
    /// this returns `false`, the clock has stopped moving.
    func setRealTime(_ running: Bool) async {
        guard running != (realTime != nil), !stopped else { return }
        if running {
            let target = self.target
            realTime = Task { [weak self] in
                let clock = ContinuousClock()
                var last = clock.now
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(100))
                    if Task.isCancelled { return }
                    let now = clock.now
                    let elapsed = (now - last).components
                    last = now
                    do {
                        try await target.advance(
                            by: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
                    } catch {
                        // The session finished, or went past a limit: the clock stops.
                        await self?.realTimeEnded()
                        return
                    }
                }
            }
            broadcast(InspectorMessage(type: "clock", realTime: true))
        } else {
            let task = realTime
            realTime = nil
            broadcast(InspectorMessage(type: "clock", realTime: false))
            task?.cancel()
            // An advance under way finishes before the clock counts as stopped.
            await task?.value
        }
    }

    /// The real-time clock's own task ended: it cannot await itself, as ``setRealTime(_:)`` does.
    private func realTimeEnded() {
        guard realTime != nil else { return }
        realTime = nil
        broadcast(InspectorMessage(type: "clock", realTime: false))
    }

    func stop() {
        stopped = true
        for waiting in settling { waiting.continuation.resume() }
        settling.removeAll()
        realTime?.cancel()
        realTime = nil
        for subscriber in subscribers.values { subscriber.finish() }
        subscribers.removeAll()
    }

    private func broadcast(_ message: InspectorMessage) {
        broadcast(Self.encode(message))
    }

    private func broadcast(_ text: String) {
        for subscriber in subscribers.values { subscriber.yield(text) }
    }

    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
#endif
