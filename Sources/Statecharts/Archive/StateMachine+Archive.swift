/// Saving a machine and restoring it.
extension StateMachine where State: Codable, Event: Codable, Context: Codable {
    /// The machine's whole state, to be encoded with any `Encoder` and restored with
    /// ``init(chart:restoring:unhandledEvents:invocations:)``.
    ///
    /// Take it between calls, when the machine is stable: no event is half processed then.
    ///
    /// - Throws: ``MachineArchiveError/stateDataNotCodable(state:type:)`` when an active state
    ///   holds ``StateData`` of a type that is not `Codable`.
    public func archive() throws(MachineArchiveError) -> MachineArchive<State, Event, Context> {
        let layout = chart.layout
        var history: [MachineArchive<State, Event, Context>.HistoryRecord] = []
        var stateData: [MachineArchive<State, Event, Context>.StateDataRecord] = []
        let recordedHistory = extras?.history ?? []
        for state in 0..<layout.stateCount where layout.historySlots[state] >= 0 {
            let slot = Int(layout.historySlots[state])
            guard slot < recordedHistory.count else { continue }
            let recorded = recordedHistory[slot]
            guard !recorded.isEmpty, let value = chart.states[state] else { continue }
            history.append(.init(history: value, states: values(recorded.map(Int.init))))
        }
        if let records = extras?.annex {
            var failure: MachineArchiveError?
            active.forEachAscending { state in
                let slot = Int(layout.dataSlots[state])
                guard failure == nil, slot >= 0, let value = records.stateData[slot], let owner = chart.states[state]
                else {
                    return
                }
                let definition = chart.stateData[slot]
                do {
                    guard let json = try definition.codec?.encode(value) else {
                        failure = .stateDataNotCodable(state: chart.stateNames[state], type: definition.typeName)
                        return
                    }
                    stateData.append(.init(state: owner, json: json))
                } catch {
                    failure = .stateData(state: chart.stateNames[state], reason: "\(error)")
                }
            }
            if let failure { throw failure }
        }
        return MachineArchive(
            chart: chart.name, status: status, time: time, configuration: configuration, history: history,
            context: storedContext, stateData: stateData, timers: archivedTimers(),
            invocations: archivedInvocations(), nextInvocation: extras?.annex?.nextInvocation)
    }

    private func archivedInvocations() -> [MachineArchive<State, Event, Context>.InvocationRecord]? {
        guard let running = extras?.annex?.liveInvocations, !running.isEmpty else { return nil }
        return running.compactMap { invocation in
            let state = Int(invocation.state)
            guard let value = chart.states[state] else { return nil }
            return .init(
                id: InvocationID(rawValue: invocation.id), state: value,
                index: Int(invocation.definition) - Int(chart.invocationOffsets[state]))
        }
    }

    private func archivedTimers() -> [MachineArchive<State, Event, Context>.PendingTimerRecord] {
        guard let timers = extras?.timers else { return [] }
        let tables = chart.tables
        return timers.ordered.compactMap { timer in
            if timer.owner >= 0 {
                let state = Int(timer.owner)
                guard let value = chart.states[state] else { return nil }
                let first = Int(tables.timeoutOffsets[state])
                let end = Int(tables.timeoutOffsets[state + 1])
                guard
                    let index = (first..<end).first(where: {
                        tables.timeoutKinds[Int(tables.timeouts[$0])] == timer.kind
                    })
                else { return nil }
                let delay = tables.timeoutDelays[Int(tables.timeouts[index])]
                return .init(deadline: timer.deadline, kind: .timeout(state: value, index: index - first, delay: delay))
            }
            let signal = signal(of: timer)
            // A send written as data is archived with its identifier as a string: the numbers the
            // chart interned identifiers as are not part of an archive.
            let id = identifier(of: timer)
            if let event = signal.event { return .init(deadline: timer.deadline, kind: .event(event, id: id)) }
            return .init(deadline: timer.deadline, kind: .named(name(of: signal), id: id))
        }
    }

    /// A machine of `chart` in the state that `archive` recorded, ready to take events.
    ///
    /// The machine's time is the archive's: call ``resume(after:overdueTimers:)`` to account for
    /// the time that passed while it was stored. The invocations of its active states start
    /// afresh (see ``takeEffects()``), or, with ``InvocationRestoration/resume``, are marked as
    /// running with their archived identifiers. No action runs: the states are not re-entered.
    ///
    /// - Parameters:
    ///   - chart: The chart the archived machine ran, or a later version of it that still has its
    ///     active states, history states and timeouts.
    ///   - archive: What ``archive()`` returned.
    ///   - unhandledEvents: What to do with an event that no transition handles.
    ///   - invocations: Whether to start the active states' invocations afresh (the default) or to
    ///     resume the archived ones.
    /// - Throws: ``MachineArchiveError`` when the archive does not fit the chart: an unknown
    ///   version or state, an illegal configuration, a history record or timer the chart cannot
    ///   have, state data that is missing or unreadable, an invocation the chart does not have.
    public init(
        chart: Statechart<State, Event, Context>, restoring archive: MachineArchive<State, Event, Context>,
        unhandledEvents: UnhandledEventPolicy = .ignore, invocations: InvocationRestoration = .restart
    ) throws(MachineArchiveError) {
        guard archive.version == MachineArchive<State, Event, Context>.currentVersion else {
            throw .unsupportedVersion(
                found: archive.version, supported: MachineArchive<State, Event, Context>.currentVersion)
        }
        guard archive.time >= 0 else {
            throw .illegalNumber(field: "time", reason: "\(archive.time) ns is before the machine started")
        }
        self.init(chart: chart, context: archive.context, unhandledEvents: unhandledEvents)
        time = archive.time
        packed.status = archive.status
        guard archive.status != .notStarted else {
            if let state = archive.configuration.first {
                throw .illegalConfiguration("a machine that has not started has no active state, but '\(state)' is")
            }
            return
        }
        let storage = self.chart
        let layout = storage.layout
        var restored = StateSet(capacity: layout.stateCount)
        for state in archive.configuration {
            guard let index = storage.stateIndices[state] else { throw .unknownState("\(state)") }
            restored.insert(Int(index))
        }
        if let problem = layout.configurationProblem(restored, names: storage.stateNames) {
            throw .illegalConfiguration(problem)
        }
        active = restored
        try restoreHistory(archive.history)
        guard archive.status == .running else { return }
        try restoreStateData(archive.stateData)
        try restoreTimers(archive.timers)
        if invocations == .resume {
            try resumeInvocations(archive.invocations ?? [], next: archive.nextInvocation)
        } else if storage.invocationOffsets.last ?? 0 > 0 {
            var states: [Int32] = []
            active.forEachAscending { state in
                if storage.invocationOffsets[state + 1] > storage.invocationOffsets[state] {
                    states.append(Int32(state))
                }
            }
            if !states.isEmpty {
                mutableAnnex().statesToInvoke = states
                startInvocations()
            }
        }
    }

    private mutating func resumeInvocations(
        _ records: [MachineArchive<State, Event, Context>.InvocationRecord], next: UInt64?
    ) throws(MachineArchiveError) {
        var highest: UInt64 = 0
        for record in records {
            guard let found = chart.stateIndices[record.state] else { throw .unknownState("\(record.state)") }
            let state = Int(found)
            let first = Int(chart.invocationOffsets[state])
            let count = Int(chart.invocationOffsets[state + 1]) - first
            guard active.contains(state), record.index >= 0, record.index < count else {
                throw .illegalConfiguration(
                    "the invocation \(record.index) of '\(chart.stateNames[state])' cannot be running: the state is not active or has no such invocation"
                )
            }
            guard record.id.rawValue < UInt64.max else {
                throw .illegalNumber(field: "invocation identifier", reason: "\(record.id.rawValue) leaves no next one")
            }
            mutableAnnex().liveInvocations.append(
                LiveInvocation(id: record.id.rawValue, state: Int32(state), definition: Int32(first + record.index)))
            highest = max(highest, record.id.rawValue + 1)
        }
        if let next { highest = max(highest, next) }
        if highest > 0 { mutableAnnex().nextInvocation = highest }
    }

    private mutating func restoreHistory(
        _ records: [MachineArchive<State, Event, Context>.HistoryRecord]
    ) throws(MachineArchiveError) {
        let layout = chart.layout
        for record in records {
            guard let found = chart.stateIndices[record.history] else { throw .unknownState("\(record.history)") }
            let history = Int(found)
            let name = chart.stateNames[history]
            guard layout.kinds[history].isHistory else {
                throw .illegalHistory(state: name, reason: "it is not a history state")
            }
            let parent = Int(layout.parents[history])
            var recorded: [Int32] = []
            for state in record.states {
                guard let index = chart.stateIndices[state] else { throw .unknownState("\(state)") }
                let isChild = Int(layout.parents[Int(index)]) == parent
                let fits =
                    layout.kinds[history] == .deepHistory
                    ? layout.isDescendant(Int(index), of: parent) && layout.kinds[Int(index)].isAtomic : isChild
                guard fits, !layout.kinds[Int(index)].isHistory else {
                    throw .illegalHistory(
                        state: name, reason: "'\(chart.stateNames[Int(index)])' is not a state it can restore")
                }
                recorded.append(index)
            }
            mutableHistory().history[Int(layout.historySlots[history])] = recorded.sorted()
        }
    }

    private mutating func restoreStateData(
        _ records: [MachineArchive<State, Event, Context>.StateDataRecord]
    ) throws(MachineArchiveError) {
        let layout = chart.layout
        var byState: [Int: String] = [:]
        for record in records {
            guard let index = chart.stateIndices[record.state] else { throw .unknownState("\(record.state)") }
            let state = Int(index)
            guard active.contains(state), layout.dataSlots[state] >= 0 else {
                throw .stateData(state: chart.stateNames[state], reason: "the state is not active or holds no data")
            }
            byState[state] = record.json
        }
        var failure: MachineArchiveError?
        var values: [(slot: Int, value: any Sendable)] = []
        active.forEachAscending { state in
            let slot = Int(layout.dataSlots[state])
            guard failure == nil, slot >= 0 else { return }
            let name = chart.stateNames[state]
            guard let json = byState[state] else {
                failure = .stateData(state: name, reason: "the archive has no data for it")
                return
            }
            guard let codec = chart.stateData[slot].codec else {
                failure = .stateData(state: name, reason: "its type \(chart.stateData[slot].typeName) is not Codable")
                return
            }
            do {
                values.append((slot, try codec.decode(json)))
            } catch {
                failure = .stateData(state: name, reason: "\(error)")
            }
        }
        if let failure { throw failure }
        if values.isEmpty { return }
        let records = mutableAnnex()
        for (slot, value) in values { records.stateData[slot] = value }
    }

    private mutating func restoreTimers(
        _ records: [MachineArchive<State, Event, Context>.PendingTimerRecord]
    ) throws(MachineArchiveError) {
        guard !records.isEmpty else { return }
        let tables = chart.tables
        var timers: [PendingTimer<Event>] = []
        for (serial, record) in records.enumerated() {
            // Numbers first, before any arithmetic: a hand-edited archive is untrusted input.
            guard record.deadline >= 0 else {
                throw .illegalNumber(
                    field: "deadline of timer \(serial)", reason: "\(record.deadline) ns is before the machine started")
            }
            switch record.kind {
            case .timeout(let state, let index, let delay):
                guard let found = chart.stateIndices[state] else { throw .unknownState("\(state)") }
                let owner = Int(found)
                let first = Int(tables.timeoutOffsets[owner])
                let count = Int(tables.timeoutOffsets[owner + 1]) - first
                guard active.contains(owner), index >= 0, index < count,
                    tables.timeoutDelays[Int(tables.timeouts[first + index])] == delay
                else { throw .unknownTimeout(state: chart.stateNames[owner], delay: .nanoseconds(delay)) }
                let position = first + index
                timers.append(
                    PendingTimer(
                        deadline: record.deadline, serial: UInt64(serial), owner: Int32(owner),
                        kind: tables.timeoutKinds[Int(tables.timeouts[position])]))
            case .event(let event, let id):
                let signal = Signal.event(event, kind: kindIndex(of: event))
                timers.append(
                    PendingTimer(
                        deadline: record.deadline, serial: UInt64(serial), delivering: signal, id: id))
            case .named(let name, let id):
                guard let kind = chart.layout.kindNames.firstIndex(of: name) else { throw .unknownEvent(name) }
                let signal = Signal<Event>(kind: Int32(kind), event: nil)
                timers.append(
                    PendingTimer(
                        deadline: record.deadline, serial: UInt64(serial), delivering: signal, id: id))
            }
        }
        let storage = mutableExtras()
        for timer in timers { storage.insert(timer) }
        storage.nextSerial = UInt64(timers.count)
    }
}

extension StateMachine {
    /// Accounts for time that passed while the machine was not running, such as between
    /// ``archive()`` and a restore: moves the machine's time forward by `elapsed`, and fires or
    /// drops the timers that fell due meanwhile, as `overdueTimers` says.
    ///
    /// With ``OverdueTimerPolicy/fire`` this is ``advance(by:)``. With
    /// ``OverdueTimerPolicy/drop`` the timers due within `elapsed` are removed first, and nothing
    /// runs.
    ///
    /// - Throws: What ``advance(by:)`` throws.
    public mutating func resume(
        after elapsed: Duration, overdueTimers: OverdueTimerPolicy
    ) throws(MachineError<State, Event>) {
        switch overdueTimers {
        case .fire:
            try advance(by: elapsed)
        case .drop:
            let target = time.addingClamped(max(elapsed, .zero).clampedNanoseconds)
            if extras?.timers.contains(where: { $0.deadline <= target }) == true {
                mutableExtras().timers.removeAll { $0.deadline <= target }
            }
            time = target
        }
    }
}
