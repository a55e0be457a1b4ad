extension ChartCompiler {
    /// The event kinds of a chart: the user's kinds first (in `allKinds` order, so that an enum's
    /// discriminator is its index), then kinds only transitions name, then the events the engine
    /// raises, then descriptor names, so that events with exactly those names are found directly.
    struct KindTables {
        var map: EventKindMap<Event>
        var userKinds: [Event.Kind?]
    }

    // MARK: - Event kinds

    mutating func buildKinds() -> KindTables {
        var userKinds: [Event.Kind?] = []
        var byKind: [Event.Kind: Int32] = [:]
        var kindNames: [String] = []
        func addUser(_ kind: Event.Kind) {
            guard byKind[kind] == nil else { return }
            byKind[kind] = Int32(kindNames.count)
            userKinds.append(kind)
            kindNames.append(Event.name(of: kind))
        }
        func addEngine(_ name: String) -> Int32 {
            userKinds.append(nil)
            kindNames.append(name)
            return Int32(kindNames.count - 1)
        }
        let declared = Event.allKinds
        for kind in declared { addUser(kind) }
        for trigger in triggers {
            guard case .events(let patterns) = trigger else { continue }
            for case .kind(let kind) in patterns { addUser(kind) }
        }
        layout.doneKinds = Array(repeating: -1, count: layout.stateCount)
        for state in 1..<max(layout.stateCount, 1)
        where layout.kinds[state] == .compound || layout.kinds[state] == .parallel {
            layout.doneKinds[state] = addEngine("done.state.\(names[state])")
        }
        layout.errorExecutionKind = addEngine("error.execution")
        layout.errorCommunicationKind = addEngine("error.communication")
        for transition in 0..<layout.transitionCount where layout.transitionFlags[transition].contains(.timeout) {
            let source = Int(layout.sources[transition])
            let milliseconds = layout.timeoutDelays[transition] / 1_000_000
            layout.timeoutKinds[transition] = addEngine("after.\(milliseconds)ms.\(names[source])")
        }
        var byName: [String: Int32] = [:]
        for (index, name) in kindNames.enumerated() where byName[name] == nil { byName[name] = Int32(index) }
        for descriptors in layout.nameDescriptors {
            for descriptor in descriptors where !descriptor.isWildcard && byName[descriptor.pattern] == nil {
                byName[descriptor.pattern] = addEngine(descriptor.pattern)
            }
        }
        layout.kindNames = kindNames
        layout.kindCount = kindNames.count
        return KindTables(
            map: EventKindMap(userKinds: declared, byKind: byKind, byName: byName), userKinds: userKinds)
    }

    // MARK: - Dispatch

    /// For each state, which kinds fire which of its transitions.
    mutating func buildDispatch(kinds: KindTables) {
        var byPrefix: [String: [Int32]] = [:]
        for (index, name) in layout.kindNames.enumerated() {
            var prefix = ""
            for (position, token) in name.split(separator: ".", omittingEmptySubsequences: false).enumerated() {
                prefix += position == 0 ? String(token) : "." + token
                byPrefix[prefix, default: []].append(Int32(index))
            }
        }
        var byKind: [Event.Kind: Int32] = [:]
        for (index, kind) in kinds.userKinds.enumerated() {
            if let kind, byKind[kind] == nil { byKind[kind] = Int32(index) }
        }
        let allKinds = (0..<layout.kindCount).map { Int32($0) }
        var pairs: [[(kind: Int32, transition: Int32)]] = Array(repeating: [], count: layout.stateCount)
        for state in 0..<layout.stateCount {
            for position in Int(layout.stateTransitionOffsets[state])..<Int(layout.stateTransitionOffsets[state + 1]) {
                let transition = Int(layout.stateTransitions[position])
                var matched: Set<Int32> = []
                var ordered: [Int32] = []
                func add(_ kind: Int32) { if matched.insert(kind).inserted { ordered.append(kind) } }
                switch triggers[transition] {
                case .events(let patterns):
                    for pattern in patterns {
                        switch pattern {
                        case .kind(let kind):
                            if let index = byKind[kind] { add(index) }
                        case .descriptor(let descriptor):
                            for kind in descriptor.isWildcard ? allKinds : byPrefix[descriptor.pattern, default: []] {
                                add(kind)
                            }
                        }
                    }
                case .after:
                    add(layout.timeoutKinds[transition])
                case .done:
                    let kind = layout.doneKinds[state]
                    if kind >= 0 { add(kind) }
                case .eventless:
                    break
                }
                for kind in ordered { pairs[state].append((kind, Int32(transition))) }
            }
        }
        layout.dispatch = TransitionDispatch(stateCount: layout.stateCount, kindCount: layout.kindCount, pairs: pairs)
    }

    // MARK: - Domains and entry plans

    /// The domains and entry sets of transitions that do not depend on history, computed once.
    mutating func buildPlans() {
        let budget = 1 << 22
        layout.entryPlanOffsets = []
        layout.hasEntryPlan = Array(repeating: false, count: layout.transitionCount)
        // One entry set for all transitions, emptied member by member: a chart of n states and
        // n transitions costs no n-bit allocation per transition.
        var set = EntrySet(capacity: layout.stateCount)
        var members: [Int] = []
        for transition in 0..<layout.transitionCount {
            layout.entryPlanOffsets.append(Int32(layout.entryPlans.count))
            let flags = layout.transitionFlags[transition]
            let source = Int(layout.sources[transition])
            let isRootInitial = source == 0 && flags.contains(.structural)
            if flags.contains(.structural) && !isRootInitial { continue }
            let targets = layout.targetRange(of: transition).map { Int(layout.targets[$0]) }
            if targets.isEmpty { continue }
            if flags.contains(.targetsHistory) {
                layout.staticDomains[transition] = ChartLayout.dynamicDomain
                continue
            }
            let domain = isRootInitial ? 0 : layout.domain(source: source, flags: flags, effectiveTargets: targets)
            layout.staticDomains[transition] = Int32(domain)
            guard layout.entryPlans.count < budget else { continue }
            layout.addEntrySet(of: transition, domain: domain, history: [], into: &set)
            members.removeAll(keepingCapacity: true)
            set.states.forEachAscending { members.append($0) }
            let usable = !set.usedHistory && set.historyContent.isEmpty
            for state in members {
                if usable {
                    let bit = set.defaultEntry.contains(state) ? ChartLayout.defaultEntryBit : 0
                    layout.entryPlans.append(Int32(state) | bit)
                }
                set.states.remove(state)
                set.defaultEntry.remove(state)
            }
            set.usedHistory = false
            set.historyContent.removeAll(keepingCapacity: true)
            if usable { layout.hasEntryPlan[transition] = true }
        }
        layout.entryPlanOffsets.append(Int32(layout.entryPlans.count))
    }
}
