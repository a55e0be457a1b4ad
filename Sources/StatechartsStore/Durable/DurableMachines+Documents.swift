#if Store
import Foundation
import Statecharts
import StatechartsSCXML

extension DurableMachines where State == String, Event == SCXMLEvent, Context == SCXMLContext {
    /// A fleet of machines of one SCXML document: each machine is a session of the document, its
    /// identifier the session's (`_sessionid`), kept as a fleet of a typed chart is.
    ///
    /// ```swift
    /// let chart = try SCXMLChart.load(contentsOf: url, dataModels: ECMAScriptDataModel.withBuiltIns)
    /// let orders = try DurableMachines(document: chart, store: store, invokers: ["charge": charge])
    /// try await orders.send(SCXMLEvent("pay", data: .object(["amount": .number(30)])), to: "order-17")
    /// ```
    ///
    /// - The data model's values are in the machine's snapshots (an ECMAScript model's variables
    ///   as JSON), and a machine read back gets a data model of its own.
    /// - A `<send>` with a delay to the session itself is a timer of the machine: a row of the
    ///   store, which fires once after a crash too, and `<cancel>` removes. A `<send>` to the session
    ///   itself without a delay is journaled into its own queue with the step. A `<send>` to
    ///   another target the SCXML processor accepts (`#_parent`, `#_INVOKEID`) reaches no session
    ///   (`error.communication`); one through another event I/O processor is `error.execution`, since
    ///   the fleet's sessions have none.
    /// - An `<invoke>` whose type has an invoker in `invokers` (or an activity in `activities`)
    ///   runs as durable work (``DurableActivity``): at least once, by any worker, retried as
    ///   ``DurableOptions/retry`` says for ``EffectKind/activity``, cancelled when its state is
    ///   exited. What the work sends (`SCXMLInvocationRequest.send(_:)`) and its
    ///   `done.invoke.ID` are journaled into the session's queue exactly once, with its
    ///   `invokeid`, so `<finalize>` runs before them; what it throws on its last attempt is
    ///   `error.execution`. Any other `<invoke>`, an SCXML document's included, ends in
    ///   `error.execution`: a durable session invokes no other session.
    ///
    /// Replaying a journal must give the machine it gave the first time: scripts must not read
    /// the clock or random numbers.
    ///
    /// Each machine a worker keeps in memory holds its data model: for ECMAScript, a JavaScript
    /// virtual machine of 1 to 2 MB. ``DurableOptions/cachedMachines`` bounds how many.
    ///
    /// - Parameters:
    ///   - chart: The document's chart, built with the data models it needs.
    ///   - store: Where the machines are kept.
    ///   - options: Batching, snapshots, compaction and retry policies.
    ///   - limits: The limits of each session's steps (`SCXMLLimits`): its microsteps per event,
    ///     its scripts' time and heap.
    ///   - clock: The time now, in nanoseconds since 1970.
    ///   - deliver: Delivers the records of `<log>` (``DurableEffect/log(label:message:)``) after
    ///     the step's transaction commits, at least once; it is also given each
    ///     ``DurableEffect/cancelInvocation(_:)``, which the fleet has done already. `nil` keeps
    ///     no logs.
    ///   - invokers: Swift work by the `<invoke>` type that runs it, as `SCXMLSession` takes it.
    ///   - activities: Work by `<invoke>` type written against the fleet: its request carries the
    ///     activity's key, to pass on as an idempotency key. A type may not be in both.
    ///   - onError: Called with a machine's identifier and a description when a step fails, as for
    ///     a typed chart.
    /// - Throws: ``StoreError/invalidConfiguration(_:)`` when a type has both an invoker and an
    ///   activity, or when `options` are invalid.
    public convenience init(
        document chart: SCXMLChart, store: any MachineStore, options: DurableOptions = DurableOptions(),
        limits: SCXMLLimits = .default, clock: @escaping @Sendable () -> Int64 = DurableMachines.systemTime,
        deliver: (@Sendable (EffectDelivery<String, SCXMLEvent, SCXMLContext>) async throws -> Void)? = nil,
        invokers: [String: SCXMLInvoker] = [:],
        activities: [String: DurableActivity<String, SCXMLEvent, SCXMLContext>] = [:],
        onError: @escaping @Sendable (String, String) -> Void = { _, _ in }
    ) throws(StoreError) {
        if let both = invokers.keys.sorted().first(where: { activities[$0] != nil }) {
            throw .invalidConfiguration("the invoke type '\(both)' has both an invoker and an activity")
        }
        var work = activities
        for (type, invoker) in invokers { work[type] = Self.activity(running: invoker) }
        let types = Array(work.keys)
        let dataModels = SCXMLDocument.builtInDataModels + [chart.dataModel]
        var adapter = DurableChartAdapter<String, SCXMLEvent, SCXMLContext>()
        // Made here, where the types are known: the sessions' steps are specialised.
        adapter.stepper = DurableStepper()
        adapter.makeDecoder = { chart.archiveDecoder() }
        adapter.reusesEncodedValues = false
        adapter.restore = { archive in try archive.context.thawModel(with: dataModels) }
        adapter.prepare = { machine in
            machine.microstepLimit = limits.microsteps
            machine.prepareDeclaredSends(pendingTimers: limits.pendingTimers)
        }
        adapter.detach = { context in try? context.freezeModel() }
        adapter.activityName = { start in
            guard let invocation = start.descriptor as? SCXMLInvocation else { return start.name }
            return invocation.invokerType ?? SCXMLInvocation.scxmlType
        }
        adapter.runsEveryInvocation = true
        adapter.outcomesAreEvents = true
        try self.init(
            chart: chart.statechart, store: store, options: options, clock: clock, deliver: deliver,
            activities: work, onError: onError, adapter: adapter
        ) { id in
            SCXMLContext(chart: chart, sessionID: id, invokerTypes: types, limits: limits)
        }
    }

    /// The activity that runs `invoker`'s work for an `<invoke>` of a durable session: what the
    /// work sends is journaled as it is sent, in order, and what it returns is `done.invoke.ID`.
    static func activity(running invoker: SCXMLInvoker) -> DurableActivity<String, SCXMLEvent, SCXMLContext> {
        DurableActivity { request in
            guard let invocation = request.context.invocation(request.invocation) else {
                throw ActivityFailure(
                    message: "the session's context has no invocation numbered \(request.invocation.rawValue)")
            }
            let (sent, sending) = AsyncStream<SCXMLEvent>.makeStream()
            let scxmlRequest = invocation.request(sessionID: request.machine, key: request.key.description) { event in
                sending.yield(event)
            }
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await event in sent { try await request.send(invocation.eventFromWork(event)) }
                }
                let data: SCXMLValue?
                do {
                    data = try await invoker.work(scxmlRequest)
                } catch {
                    sending.finish()
                    group.cancelAll()
                    throw error
                }
                // What it sent is journaled before its end.
                sending.finish()
                try await group.waitForAll()
                return invocation.doneEvent(data: data)
            }
        }
    }
}
#endif
