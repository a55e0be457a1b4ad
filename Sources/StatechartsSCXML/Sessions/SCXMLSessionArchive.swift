import Foundation
import Statecharts

/// The whole state of an ``SCXMLSession``, `Codable`: the top session's machine, every invoked
/// session still running with the document it runs, the events sent between sessions with a delay,
/// and the session's time. Restored with ``SCXMLSession/init(chart:restoring:options:)``, the
/// session goes on exactly where it was: children keep their state and identifiers, and their
/// invocations are not started again.
///
/// ```swift
/// let data = try JSONEncoder().encode(session.archive())
/// let archive = try chart.archiveDecoder(dataModels: models).decode(SCXMLSessionArchive.self, from: data)
/// var restored = try SCXMLSession(chart: chart, restoring: archive)
/// ```
///
/// An archive is taken between calls; not while events are on their way through an event I/O
/// processor (``SCXMLSession/isAwaitingEvents``), which it could not hold.
public struct SCXMLSessionArchive: Sendable, Codable {
    /// The format this library writes and reads.
    public static var currentVersion: Int { 1 }

    /// The format of this archive.
    public var version: Int
    /// The session's time, in nanoseconds.
    public var time: Int64
    /// The top session's machine.
    public var top: MachineArchive<String, SCXMLEvent, SCXMLContext>
    /// The invoked sessions, in the order they started.
    var children: [ChildRecord]
    /// The events sent with a delay to other sessions or processors, in the order they fall due.
    var delayed: [SCXMLSession.DelayedDelivery]
    var sequence: Int

    /// The top session's identifier.
    public var sessionID: String { top.context.info.id }

    /// The bytes the data models of the archive's sessions take in it, frozen: nearly all that
    /// keeping the archive in memory costs, for a document with data (what the inspector bounds
    /// its timeline by).
    public var dataModelBytes: Int {
        ([top] + children.map(\.machine)).reduce(0) { sum, machine in
            sum + ((machine.context.model as? ArchivedDataModel)?.encoded.count ?? 0)
        }
    }

    /// The identifiers of the invoked sessions, in the order they started.
    public var childSessionIDs: [String] { children.map(\.sessionID) }

    struct ChildRecord: Sendable, Codable {
        var sessionID: String
        var parent: String
        var invocation: InvocationID
        var invokeID: String
        var source: SCXMLInvocationSource
        var invokingDocument: String
        var machine: MachineArchive<String, SCXMLEvent, SCXMLContext>
    }
}

/// Why a session could not be archived or restored.
public enum SCXMLArchiveError: Error, Sendable, CustomStringConvertible {
    /// Events are on their way through an event I/O processor; settle the session first.
    case eventsInFlight
    /// A session's machine could not be archived or restored.
    case machine(session: String, MachineArchiveError)
    /// The document an invoked session runs could not be read again.
    case document(session: String, SCXMLError)
    /// The archive was written in a format this library does not read.
    case unsupportedVersion(found: Int, supported: Int)
    /// The archive does not fit the chart.
    case mismatch(String)
    /// A session's data model holds a value no archive can keep, or an archived one cannot be
    /// read back: the reason names the variable.
    case dataModel(session: String, reason: String)

    /// A sentence that says what went wrong.
    public var description: String {
        switch self {
        case .eventsInFlight:
            return "events are on their way through an event I/O processor; settle the session before archiving it"
        case .machine(let session, let error):
            return "session \(session): \(error)"
        case .document(let session, let error):
            return "session \(session): its document cannot be read again: \(error)"
        case .unsupportedVersion(let found, let supported):
            return "the archive's format is version \(found); this library reads version \(supported)"
        case .mismatch(let reason):
            return "the archive does not fit the chart: \(reason)"
        case .dataModel(let session, let reason):
            return "session \(session): \(reason)"
        }
    }
}

extension SCXMLSession {
    /// A duration in whole nanoseconds, clamped to what 64 bits hold.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return whole.addingReportingOverflow(attoseconds / 1_000_000_000).overflow
            ? (seconds < 0 ? .min : .max) : whole + attoseconds / 1_000_000_000
    }

    /// The session's whole state now.
    ///
    /// - Throws: ``SCXMLArchiveError/eventsInFlight`` while events are on their way through an
    ///   event I/O processor; ``SCXMLArchiveError/machine(session:_:)`` when a session's machine
    ///   cannot be archived.
    public func archive() throws(SCXMLArchiveError) -> SCXMLSessionArchive {
        let router = host.router
        guard router.pendingHead == router.pending.count, router.inFlight.isEmpty else { throw .eventsInFlight }
        var top: MachineArchive<String, SCXMLEvent, SCXMLContext>
        do {
            top = try machine.archive()
        } catch {
            throw .machine(session: sessionID, error)
        }
        try Self.freeze(&top, session: sessionID)
        var records: [SCXMLSessionArchive.ChildRecord] = []
        for id in router.childOrder {
            guard let child = router.children[id] else { continue }
            var archived: MachineArchive<String, SCXMLEvent, SCXMLContext>
            do {
                archived = try child.machine.archive()
            } catch {
                throw .machine(session: id, error)
            }
            try Self.freeze(&archived, session: id)
            records.append(
                .init(
                    sessionID: id, parent: child.parent, invocation: child.invocation, invokeID: child.invokeID,
                    source: child.source, invokingDocument: child.invokingDocument, machine: archived))
        }
        return SCXMLSessionArchive(
            version: SCXMLSessionArchive.currentVersion, time: Self.nanoseconds(now), top: top, children: records,
            delayed: router.delayed.ordered, sequence: router.sequence)
    }

    /// Puts the archive's data model in its archived form (`ArchivedDataModel`): a value that
    /// shares nothing with the live model.
    static func freeze(
        _ archive: inout MachineArchive<String, SCXMLEvent, SCXMLContext>, session: String
    ) throws(SCXMLArchiveError) {
        do {
            archive.context.model = try ArchivedDataModel(freezing: archive.context.model)
        } catch let EncodingError.invalidValue(_, context) {
            throw .dataModel(session: session, reason: context.debugDescription)
        } catch {
            throw .dataModel(session: session, reason: "its data model cannot be archived: \(error)")
        }
    }

    /// The archive with its data model live again, a new one of its own.
    func thawed(
        _ archive: MachineArchive<String, SCXMLEvent, SCXMLContext>, session: String
    ) throws(SCXMLArchiveError) -> MachineArchive<String, SCXMLEvent, SCXMLContext> {
        guard let archived = archive.context.model as? ArchivedDataModel else { return archive }
        var live = archive
        do {
            live.context.model = try archived.thawed(with: dataModels)
            return live
        } catch DecodingError.dataCorrupted(let context) {
            throw .dataModel(session: session, reason: context.debugDescription)
        } catch {
            throw .dataModel(session: session, reason: "its data model cannot be restored: \(error)")
        }
    }

    /// A session of `chart` in the state `archive` recorded: the documents of its invoked sessions
    /// are read again, and their machines restored with the invocations that were running.
    ///
    /// The sessions are opened again at the event I/O processors of `options`; `_ioprocessors`
    /// keeps the locations the archived sessions had.
    ///
    /// - Throws: ``SCXMLArchiveError`` when the archive does not fit the chart or a document cannot
    ///   be read again.
    public init(
        chart: SCXMLChart, restoring archive: SCXMLSessionArchive, options: Options = Options()
    ) throws(SCXMLArchiveError) {
        guard archive.version == SCXMLSessionArchive.currentVersion else {
            throw .unsupportedVersion(found: archive.version, supported: SCXMLSessionArchive.currentVersion)
        }
        // Numbers first, before any arithmetic: an archive read from a file is untrusted input.
        guard archive.time >= 0 else { throw .mismatch("the session's time \(archive.time) ns is negative") }
        // A session counts its delayed sends from 0: 2^62 of them would take a century at a billion
        // a second, and leaves room to count on without overflow.
        guard (0...(1 << 62)).contains(archive.sequence) else {
            throw .mismatch("the session's sequence \(archive.sequence) is out of the range a session counts in")
        }
        guard archive.delayed.count <= options.limits.pendingTimers else {
            throw .mismatch(
                "the archive holds \(archive.delayed.count) delayed events, more than the limit pendingTimers of \(options.limits.pendingTimers)"
            )
        }
        for delivery in archive.delayed {
            guard delivery.deadline >= .zero, delivery.sequence >= 0, delivery.sequence <= archive.sequence else {
                throw .mismatch(
                    "the delayed event '\(delivery.event.name)' has a deadline of \(delivery.deadline) and sequence \(delivery.sequence), which the session cannot have"
                )
            }
        }
        guard archive.children.count < options.limits.sessions else {
            throw .mismatch(
                "the archive holds \(archive.children.count) invoked sessions, more than the limit sessions of \(options.limits.sessions)"
            )
        }
        var options = options
        options.sessionID = archive.sessionID
        self.init(chart: chart, options: options)
        let live = try thawed(archive.top, session: archive.sessionID)
        do {
            machine = try StateMachine(chart: chart.statechart, restoring: live, invocations: .resume)
        } catch {
            throw .machine(session: archive.sessionID, error)
        }
        host.router.configure(&machine)
        now = .nanoseconds(archive.time)
        for record in archive.children {
            let invoking: SCXMLChart
            if record.parent == sessionID {
                invoking = chart
            } else if let parent = host.router.children[record.parent] {
                invoking = parent.chart
            } else {
                throw .mismatch("the parent \(record.parent) of session \(record.sessionID) is not running")
            }
            guard invoking.document.location.file == record.invokingDocument else {
                throw .mismatch(
                    "session \(record.sessionID) was invoked from \(record.invokingDocument), not \(invoking.document.location.file)"
                )
            }
            let childChart: SCXMLChart
            do {
                childChart = try host.router.chart(
                    for: record.source, invokedFrom: invoking, at: invoking.document.location)
            } catch {
                throw .document(session: record.sessionID, error)
            }
            let live = try thawed(record.machine, session: record.sessionID)
            var restored: Machine
            do {
                restored = try StateMachine(chart: childChart.statechart, restoring: live, invocations: .resume)
            } catch {
                throw .machine(session: record.sessionID, error)
            }
            host.router.configure(&restored)
            _ = Self.open(record.sessionID, at: options.eventProcessors)
            host.router.children[record.sessionID] = Child(
                machine: restored, chart: childChart, parent: record.parent, invocation: record.invocation,
                invokeID: record.invokeID, source: record.source, invokingDocument: record.invokingDocument)
            host.router.childOrder.append(record.sessionID)
        }
        host.router.delayed = DelayedQueue(archive.delayed)
        host.router.sequence = archive.sequence
        restartWorks()
    }
}
