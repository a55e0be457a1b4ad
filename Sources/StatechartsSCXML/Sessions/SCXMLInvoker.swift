import Statecharts

/// Swift work that a document invokes by type: `<invoke type="download" src="…">` runs the
/// invoker registered for `download` in ``SCXMLSession/Options/invokers``.
///
/// The work is an async function. It gets the invocation (``SCXMLInvocationRequest``): its
/// `invokeid`, the values of its `<param>` elements and `namelist`, and its `src` or `<content>`.
/// While it runs it may send events to the invoking session, which arrive in the order sent, as
/// events from an invoked session do (with `_event.invokeid`, and `<finalize>` run before them).
/// What it returns is the data of `done.invoke.ID`; what it throws is `error.execution` in the
/// invoking session, naming the `<invoke>`. Exiting the invoking state cancels the work's task:
/// nothing it sends after that is delivered, and neither is its outcome.
///
/// ```swift
/// let download = SCXMLInvoker { request in
///     let url = request.parameters["url"]?.description ?? ""
///     request.send(SCXMLEvent("download.progress", data: .number(0.5)))
///     return .string("downloaded \(url)")
/// }
/// var session = SCXMLSession(chart: chart, options: .init(invokers: ["download": download]))
/// ```
///
/// In an ``SCXMLSession`` on its virtual clock, the events and the outcome arrive when the caller
/// lets them, as those of event I/O processors do (``SCXMLSession/receiveEvents()``,
/// ``SCXMLSession/settle(upTo:)``); a live session (``IsolatedSCXMLSession``,
/// ``SCXMLSessionActor``) takes them by itself. An archive cannot hold a task: a session restored
/// from an archive taken while work ran starts that work again, from the beginning, with the same
/// request. Make work that may run twice safe to run twice. A session is a value, but the tasks of
/// its Swift work are not: copies of a session made while work runs share it, and what the work
/// sends goes to the copy that receives it first.
public struct SCXMLInvoker: Sendable {
    /// The work: an async function of the invocation, whose result is the data of
    /// `done.invoke.ID`.
    public typealias Work = @Sendable (SCXMLInvocationRequest) async throws -> SCXMLValue?

    /// The work.
    public let work: Work

    /// An invoker that runs `work` for each `<invoke>` of its type.
    public init(_ work: @escaping Work) {
        self.work = work
    }
}

/// One `<invoke>` of a Swift invoker: what its work is given.
public struct SCXMLInvocationRequest: Sendable {
    /// The `<invoke>`'s identifier (SCXML's `invokeid`): `done.invoke.` followed by it ends it.
    public let invokeID: String
    /// The type the `<invoke>` named.
    public let type: String
    /// The values of its `<param>` elements and `namelist`, by name.
    public let parameters: [String: SCXMLValue]
    /// Its `src` (or `srcexpr`'s value), or the text of its `<content>`; `nil` when it has neither.
    public let source: String?
    /// The identifier of the session that invoked it.
    public let sessionID: String
    /// In a durable fleet (StatechartsStore's `DurableMachines(document:…)`), the work's key: the
    /// same on every attempt and in every worker, to give the services it calls as an idempotency
    /// key. `nil` in an ``SCXMLSession``, which runs each invocation's work once.
    public let key: String?
    /// Where what the work sends goes: its session's inbox, or a durable fleet's journal.
    let post: @Sendable (SCXMLEvent) -> Void

    /// Sends `event` to the invoking session, after the events sent before it. An event sent after
    /// the work was cancelled is dropped.
    public func send(_ event: SCXMLEvent) {
        post(event)
    }
}

/// What Swift invocations bring back to their session: events, and their outcomes, in the order
/// they happened. Shared by a session and the tasks of its invocations; a waiter is woken by the
/// first arrival.
final class InvokerInbox: Sendable {
    enum Arrival: Sendable {
        case event(SCXMLEvent)
        case done(SCXMLValue?)
        case failed(String)
    }

    private struct Contents {
        var arrivals: [(work: String, arrival: Arrival)] = []
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        /// Waiters whose time ran out, or whose task was cancelled, before they waited.
        var expired: Set<Int> = []
        var nextWaiter = 0
    }

    private let contents = Locked(Contents())

    func post(_ arrival: Arrival, from work: String) {
        let waiters = contents.withLock { contents in
            contents.arrivals.append((work, arrival))
            defer { contents.waiters.removeAll() }
            return Array(contents.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// What arrived since the last call, in order.
    func take() -> [(work: String, arrival: Arrival)] {
        contents.withLock { contents in
            defer { contents.arrivals.removeAll() }
            return contents.arrivals
        }
    }

    /// Whether something waits to be taken.
    var hasArrivals: Bool { contents.withLock { !$0.arrivals.isEmpty } }

    /// Returns when something waits to be taken, after `timeout`, or when the task is cancelled.
    func waitForArrivals(upTo timeout: Duration) async {
        let id = contents.withLock { contents in
            contents.nextWaiter += 1
            return contents.nextWaiter
        }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.expire(id)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = contents.withLock { contents in
                    if !contents.arrivals.isEmpty || contents.expired.remove(id) != nil { return true }
                    contents.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            expire(id)
        }
        timer.cancel()
        contents.withLock { _ = $0.expired.remove(id) }
    }

    /// Wakes waiter `id`, or marks it so that it does not wait.
    private func expire(_ id: Int) {
        let waiter = contents.withLock { contents in
            guard let waiter = contents.waiters.removeValue(forKey: id) else {
                contents.expired.insert(id)
                return nil as CheckedContinuation<Void, Never>?
            }
            return waiter
        }
        waiter?.resume()
    }
}
