#if Tools
#if Inspector
import Foundation
import Statecharts
import StatechartsInspector
import StatechartsSCXML

/// A document's session as `statechart inspect` shows it: on a virtual clock the page controls,
/// with an archive of every step of the timeline, to resume from.
actor SessionInspectorTarget: InspectorTarget {
    nonisolated let chartName: String
    nonisolated let svg: String
    nonisolated let abilities = InspectorAbilities(sending: true, timeTravel: true, clock: true)
    private var session: ChartSession
    private var report: (@Sendable (InspectorStep) -> Void)?
    /// The steps of the timeline, each with the session after it, by index; as many as the
    /// timeline keeps. The newest is at ``index``.
    private var kept: [Int: Kept] = [:]
    private let archiveLimit: Int
    /// How many bytes the kept archives' data models may take together; older steps are dropped
    /// (the newest is always kept), so that a document with large data stepping fast keeps the
    /// memory bounded.
    private let archiveBytes: Int
    /// The bytes of each kept step's archive, and their sum.
    private var keptBytes: [Int: Int] = [:]
    private var totalKeptBytes = 0
    private var index = 0
    /// One request at a time: a step awaits, and another must not start on the same session.
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(session: ChartSession, archiveLimit: Int = 1000, archiveBytes: Int = 64 << 20) {
        self.session = session
        self.archiveLimit = archiveLimit
        self.archiveBytes = archiveBytes
        chartName = session.source.name
        svg = session.source.chart.statechart.svg()
    }

    func connect(report: @escaping @Sendable (InspectorStep) -> Void) async -> InspectorStep {
        await acquire()
        defer { release() }
        self.report = report
        var working = session
        var outcome: ChartSession.Outcome
        var messages: [String] = []
        do {
            outcome = try await working.start()
        } catch {
            outcome = working.current("start")
            messages = ["\(error)"]
        }
        session = working
        let archive = try? session.archive()
        let step = describe(outcome, archive: archive, messages: messages)
        keep(Kept(step: step, archive: archive))
        return step
    }

    /// The session now. It waits its turn as every request does: ``ChartSession/take(_:progress:)``
    /// is nonisolated and runs the document's scripts off this actor while a step is under way, so a
    /// snapshot taken then would archive the same JavaScript context from a second thread (the
    /// abort seen with requests arriving during a clock advance).
    func snapshot() async -> InspectorSnapshot {
        await acquire()
        defer { release() }
        return snapshot(archive: try? session.archive())
    }

    func send(_ event: InspectorEvent) async throws(InspectorError) {
        let data: SCXMLValue?
        if let value = event.data {
            guard let converted = value.scxmlValue else {
                throw InspectorError("the data of '\(event.name)' cannot be given to the document")
            }
            data = converted
        } else {
            data = nil
        }
        try await take(.event(event.name, data: data))
    }

    /// Moves the clock on: each instant at which timers fire is a step of the timeline; the
    /// time after the last of them updates the newest step rather than adding one, so that a
    /// clock running in real time adds steps only when something happens.
    func advance(by seconds: Double) async throws(InspectorError) {
        guard seconds.isFinite, seconds >= 0 else { throw InspectorError("advance takes seconds, 0 or more") }
        await acquire()
        defer { release() }
        try ensureRunning()
        let target = session.session.now + .nanoseconds(Int64((seconds * 1e9).rounded()))
        while let deadline = session.session.nextDeadline, deadline <= target, session.session.status == .running {
            let wait = deadline - session.session.now
            let moment = deadline.components
            let label = "timers at \(Self.seconds(Double(moment.seconds) + Double(moment.attoseconds) / 1e18))"
            try await takeLocked(.wait(wait, written: "\(wait)"), label: label)
        }
        guard session.session.status == .running, session.session.now < target else { return }
        var working = session
        do {
            _ = try await working.take(.wait(target - working.session.now, written: "rest"))
            session = working
        } catch {
            session = working
            throw InspectorError("\(error)", status: 422)
        }
        // The newest step, with the machine as it is now.
        if var step = kept[index]?.step {
            let archive = try? session.archive()
            step.snapshot = snapshot(archive: archive)
            publish(step, archive: archive)
        }
    }

    func resume(from target: Int) async throws(InspectorError) {
        await acquire()
        defer { release() }
        guard let entry = kept[target], let archive = entry.archive else {
            throw InspectorError("the timeline no longer holds step \(target)", status: 404)
        }
        do {
            try session.restore(archive)
        } catch {
            throw InspectorError("\(error)", status: 500)
        }
        index = target
        for later in kept.keys where later > target { drop(later) }
        // The step as it was, marked: the timeline goes on from it.
        var step = entry.step
        if !step.messages.contains(Self.resumedMark) { step.messages.append(Self.resumedMark) }
        publish(step, archive: archive)
    }

    func disconnect() async { report = nil }

    // MARK: - Steps

    /// Takes a step.
    private func take(_ step: Step) async throws(InspectorError) {
        await acquire()
        defer { release() }
        try ensureRunning()
        try await takeLocked(step, label: step.label)
    }

    private func ensureRunning() throws(InspectorError) {
        guard session.session.status == .running else {
            throw InspectorError("the session has finished; resume from an earlier step", status: 409)
        }
    }

    /// Takes a step and reports it; the caller holds the session.
    private func takeLocked(_ step: Step, label: String) async throws(InspectorError) {
        var working = session
        do {
            let outcome = try await working.take(step)
            session = working
            record(outcome, label: label)
        } catch {
            session = working
            record(working.current(step.label), label: label, messages: ["\(error)"])
            throw InspectorError("\(error)", status: 422)
        }
    }

    /// A step of the timeline, with the session after it to resume from.
    private struct Kept {
        var step: InspectorStep
        var archive: SCXMLSessionArchive?
    }

    /// Keeps a step at ``index``, then drops the oldest while more steps or bytes are kept than
    /// allowed; the newest stays.
    private func keep(_ entry: Kept) {
        drop(index)
        let bytes = entry.archive?.dataModelBytes ?? 0
        kept[index] = entry
        keptBytes[index] = bytes
        totalKeptBytes += bytes
        var oldest = kept.keys.min() ?? index
        while oldest < index, kept.count > archiveLimit || totalKeptBytes > archiveBytes {
            drop(oldest)
            oldest = kept.keys.min() ?? index
        }
    }

    private func drop(_ step: Int) {
        guard kept.removeValue(forKey: step) != nil else { return }
        totalKeptBytes -= keptBytes.removeValue(forKey: step) ?? 0
    }

    /// What a step resumed from says.
    static let resumedMark = "resumed from here"

    private func record(_ outcome: ChartSession.Outcome, label: String, messages: [String] = []) {
        index += 1
        // Archived once: for the snapshot's data and timers, and to resume from.
        let archive = try? session.archive()
        var step = describe(outcome, archive: archive, messages: messages)
        step.label = label
        publish(step, archive: archive)
    }

    /// Keeps `step` as the newest, at ``index``, with the session's archive, and reports it.
    private func publish(_ step: InspectorStep, archive: SCXMLSessionArchive?) {
        keep(Kept(step: step, archive: archive))
        report?(step)
    }

    /// Seconds as the page shows them: 1 s, 2.5 s.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    private func describe(
        _ outcome: ChartSession.Outcome, archive: SCXMLSessionArchive?, messages: [String] = []
    ) -> InspectorStep {
        InspectorStep(
            index: index, label: outcome.step,
            event: outcome.event.map { InspectorEvent(name: $0.name, data: $0.data.flatMap(Self.inspectorValue)) },
            exited: outcome.exited, entered: outcome.entered, messages: outcome.logs + outcome.errors + messages,
            transitions: outcome.transitions.map {
                InspectorTransition(source: $0.source, event: $0.event, targets: $0.targets)
            }, snapshot: snapshot(archive: archive))
    }

    /// The session now; `archive` is its archive now, which holds the data model and the timers.
    private func snapshot(archive: SCXMLSessionArchive?) -> InspectorSnapshot {
        let outcome = session.current("now")
        var data = InspectorValue.null
        var timers: [InspectorSnapshot.PendingTimer] = []
        if let archive {
            data = InspectorSnapshot.sessionData(of: archive)
            timers = InspectorSnapshot.pendingTimers(of: archive)
        }
        return InspectorSnapshot(
            configuration: outcome.configuration, active: outcome.active,
            events: session.session.status == .running ? session.eventsHandledNow : [], data: data,
            timers: timers, time: outcome.time, status: outcome.status)
    }

    static func inspectorValue(_ value: SCXMLValue) -> InspectorValue? { InspectorValue(encoding: value) }

    private func acquire() async {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
    }

    private func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
#endif
#endif
