extension ChartCompiler {
    // MARK: - Transitions

    /// Numbers the transitions state by state: first the structural ones (a compound state's
    /// initial transition, a history state's default), then the state's own, in document order.
    mutating func buildTransitions() {
        let count = flat.count
        layout.initialTransitions = Array(repeating: -1, count: count)
        layout.historyDefaults = Array(repeating: -1, count: count)
        layout.targetOffsets = []
        for index in 0..<count {
            layout.stateTransitionOffsets.append(Int32(layout.stateTransitions.count))
            layout.eventlessOffsets.append(Int32(layout.eventless.count))
            layout.timeoutOffsets.append(Int32(layout.timeouts.count))
            let kind = layout.kinds[index]
            if kind == .compound || kind == .root {
                addInitialTransition(of: index)
            }
            if kind.isHistory {
                addHistoryDefault(of: index)
                continue
            }
            if kind == .final { continue }
            for definition in flat[index].transitions {
                addOwnTransition(definition, source: index)
            }
        }
        layout.stateTransitionOffsets.append(Int32(layout.stateTransitions.count))
        layout.eventlessOffsets.append(Int32(layout.eventless.count))
        layout.timeoutOffsets.append(Int32(layout.timeouts.count))
        layout.targetOffsets.append(Int32(layout.targets.count))
        layout.transitionCount = layout.sources.count
    }

    @discardableResult
    mutating func appendTransition(
        source: Int, targets: [Int], flags: TransitionFlags, condition: Guard?, action: Action?,
        trigger: TransitionTrigger<Event.Kind>, location: SourcePosition?
    ) -> Int {
        let index = layout.sources.count
        layout.sources.append(Int32(source))
        layout.targetOffsets.append(Int32(layout.targets.count))
        layout.targets.append(contentsOf: targets.map { Int32($0) })
        resolvedTargets.append(targets)
        var flags = flags
        if targets.contains(where: { layout.kinds[$0].isHistory }) { flags.insert(.targetsHistory) }
        layout.transitionFlags.append(flags)
        if let condition {
            layout.guards.append(Int32(guards.count))
            guards.append(condition)
        } else {
            layout.guards.append(-1)
        }
        if let action {
            layout.actions.append(Int32(actions.count))
            actions.append(action)
        } else {
            layout.actions.append(-1)
        }
        var delay: Int64 = 0
        if case .after(let duration) = trigger { delay = duration.clampedNanoseconds }
        layout.timeoutDelays.append(delay)
        layout.timeoutKinds.append(-1)
        layout.staticDomains.append(ChartLayout.noDomain)
        var descriptors: [EventDescriptor] = []
        if case .events(let patterns) = trigger {
            for case .descriptor(let descriptor) in patterns { descriptors.append(descriptor) }
        }
        layout.nameDescriptors.append(descriptors)
        triggers.append(trigger)
        transitionLocations.append(location)
        return index
    }

    /// The initial transition of a compound state or of the root.
    mutating func addInitialTransition(of index: Int) {
        let state = flat[index]
        var ids: [State]
        var action: Action?
        var location = state.location
        if index == 0 {
            ids = initial
        } else if !state.initial.isEmpty {
            ids = state.initial
        } else if let element = state.initialElements.first {
            ids = element.targets
            action = element.action
            location = element.location ?? location
        } else {
            ids = []
        }
        var targets = resolve(
            ids, what: index == 0 ? "the initial state of the chart" : "the initial state of '\(names[index])'",
            location: location)
        if ids.isEmpty, let first = state.children.first(where: { !isHistory($0) }) {
            targets = [first]
        }
        for target in targets where !layout.isDescendant(target, of: index) {
            let message: String
            if index == 0 {
                message = "the initial state '\(names[target])' of the chart cannot be entered from the top"
            } else if target == index {
                message =
                    "the initial state of '\(names[index])' is '\(names[index])' itself, so entering it would never end"
            } else if layout.isDescendant(index, of: target) {
                message =
                    "the initial state '\(names[target])' of '\(names[index])' is its ancestor, so entering it would never end"
            } else {
                message = "the initial state '\(names[target])' of '\(names[index])' is not one of its descendants"
            }
            problems.append(
                ChartProblem(code: .invalidInitial, message: message, state: names[index], location: location))
        }
        checkCompatible(
            targets, what: index == 0 ? "the initial states of the chart" : "the initial states of '\(names[index])'",
            state: index, location: location)
        if action != nil { layout.stateFlags[index].insert(.hasInitialAction) }
        layout.initialTransitions[index] = Int32(
            appendTransition(
                source: index, targets: targets, flags: .structural, condition: nil, action: action,
                trigger: .eventless, location: location))
    }

    /// The default transition of a history state, taken while it has recorded nothing.
    mutating func addHistoryDefault(of index: Int) {
        let state = flat[index]
        let parent = state.parent
        let definition = state.transitions.first
        if state.transitions.count > 1 {
            report(.invalidHistory, "the history state '\(names[index])' has several default transitions", index)
        }
        var targets = resolve(
            definition?.targets ?? [], what: "the default of the history state '\(names[index])'",
            location: definition?.location ?? state.location)
        if targets.isEmpty && (definition?.targets.isEmpty ?? true) {
            if layout.kinds[parent] == .parallel {
                targets = flat[parent].children.filter { !isHistory($0) }
            } else if layout.kinds[parent] == .compound {
                let initial = Int(layout.initialTransitions[parent])
                if initial >= 0 { targets = resolvedTargets[initial] }
                if targets.contains(index) {
                    report(
                        .invalidHistory,
                        "the history state '\(names[index])' is the initial state of '\(names[parent])' but has no default of its own",
                        index)
                    targets = []
                }
            }
        }
        for target in targets {
            if layout.kinds[target].isHistory {
                report(
                    .invalidHistory,
                    "the default of the history state '\(names[index])' is the history state '\(names[target])'", index)
            } else if parent > 0, !layout.isDescendant(target, of: parent) {
                report(
                    .invalidHistory,
                    "the default '\(names[target])' of the history state '\(names[index])' is not a descendant of '\(names[parent])'",
                    index)
            }
        }
        let valid = targets.filter {
            !layout.kinds[$0].isHistory && (parent == 0 || layout.isDescendant($0, of: parent))
        }
        checkCompatible(
            valid, what: "the default of the history state '\(names[index])'", state: index, location: state.location)
        layout.historyDefaults[index] = Int32(
            appendTransition(
                source: index, targets: valid, flags: .structural, condition: nil,
                action: Action.wrapping(definition?.action),
                trigger: .eventless, location: definition?.location ?? state.location))
    }

    /// One of a state's own transitions.
    mutating func addOwnTransition(_ definition: TransitionDefinition<State, Event, Context>, source: Int) {
        let description = describe(definition.trigger, source: source)
        let targets = resolve(definition.targets, what: description, location: definition.location)
        checkCompatible(targets, what: "the targets of \(description)", state: source, location: definition.location)
        var flags: TransitionFlags = definition.type == .internal ? .internal : []
        switch definition.trigger {
        case .eventless:
            flags.insert(.eventless)
        case .after(let delay):
            flags.insert(.timeout)
            if delay < .zero {
                problems.append(
                    ChartProblem(
                        code: .invalidDelay, message: "\(description) has a negative delay (\(delay))",
                        state: names[source], location: definition.location))
            }
        case .done:
            let kind = layout.kinds[source]
            if kind != .compound && kind != .parallel {
                problems.append(
                    ChartProblem(
                        code: .unreachableCompletion,
                        message:
                            "\(description) can never be taken: '\(names[source])' has no child states, so it never completes",
                        state: names[source], location: definition.location))
            }
        case .events(let patterns):
            if patterns.isEmpty {
                problems.append(
                    ChartProblem(
                        code: .missingEvent,
                        message: "\(description) names no event; use Always for an eventless transition",
                        state: names[source], location: definition.location))
            }
        }
        let index = appendTransition(
            source: source, targets: targets, flags: flags, condition: Guard.wrapping(definition.condition),
            action: Action.wrapping(definition.action),
            trigger: definition.trigger, location: definition.location)
        if flags.contains(.eventless) {
            layout.eventless.append(Int32(index))
        } else {
            layout.stateTransitions.append(Int32(index))
        }
        if flags.contains(.timeout) { layout.timeouts.append(Int32(index)) }
    }

    func describe(_ trigger: TransitionTrigger<Event.Kind>, source: Int) -> String {
        let from = "'\(names[source])'"
        switch trigger {
        case .eventless: return "the eventless transition from \(from)"
        case .after(let delay): return "the transition after \(delay) from \(from)"
        case .done: return "the completion transition from \(from)"
        case .events(let patterns):
            let events = patterns.map { pattern -> String in
                switch pattern {
                case .kind(let kind): return Event.name(of: kind)
                case .descriptor(let descriptor): return descriptor.pattern
                }
            }
            return "the transition on '\(events.joined(separator: " "))' from \(from)"
        }
    }

    mutating func report(_ code: ChartProblem.Code, _ message: String, _ state: Int) {
        problems.append(ChartProblem(code: code, message: message, state: names[state], location: flat[state].location))
    }

    /// The indices of `ids`, reporting those the chart lacks.
    mutating func resolve(_ ids: [State], what: String, location: SourcePosition?) -> [Int] {
        var result: [Int] = []
        for id in ids {
            if let index = indexOf[id] {
                if !result.contains(index) { result.append(index) }
            } else {
                problems.append(
                    ChartProblem(
                        code: .unknownTarget, message: "\(what) targets '\(id)', which is not a state of the chart",
                        location: location))
            }
        }
        return result
    }

    /// Reports targets that cannot be active together: each pair must lie in different regions of
    /// a parallel state.
    mutating func checkCompatible(_ targets: [Int], what: String, state: Int, location: SourcePosition?) {
        guard targets.count > 1 else { return }
        // Targets can be active together when every two of them meet, walking up the tree, at a
        // parallel state, coming from different children. One walk per target, stopped where it
        // meets an earlier walk, checks every pair in O(targets × depth).
        var reachedFrom: [Int: (child: Int, target: Int)] = [:]
        var isTarget: [Int: Bool] = [:]
        func conflict(_ a: Int, _ b: Int) {
            problems.append(
                ChartProblem(
                    code: .incompatibleTargets,
                    message: "\(what) include '\(names[a])' and '\(names[b])', which cannot be active at the same time",
                    state: names[state], location: location))
        }
        for target in targets {
            if isTarget[target] != nil {
                conflict(target, target)
                return
            }
            if let below = reachedFrom[target] {
                conflict(below.target, target)
                return
            }
            isTarget[target] = true
            var child = target
            var ancestor = Int(layout.parents[target])
            while ancestor >= 0 {
                if isTarget[ancestor] != nil {
                    conflict(ancestor, target)
                    return
                }
                if let earlier = reachedFrom[ancestor] {
                    if layout.kinds[ancestor] != .parallel || earlier.child == child {
                        conflict(earlier.target, target)
                        return
                    }
                    break
                }
                reachedFrom[ancestor] = (child, target)
                child = ancestor
                ancestor = Int(layout.parents[ancestor])
            }
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds, truncated toward zero and clamped to what an `Int64`
    /// holds: `Int64.max` from `Int64.max / 10^9` seconds on, and `Int64.min` from its negation
    /// down. Any duration converts, including those whose seconds an `Int64` cannot hold (where
    /// `components` traps), such as the sum of two very long delays.
    ///
    /// The attoseconds are divided by 10^9 in one full-width division of their 128 bits, without
    /// the 128-bit arithmetic of `components`: a delay costs a few instructions to convert.
    @inlinable
    package var clampedNanoseconds: Int64 {
        let bound = UInt64(Int64.max / 1_000_000_000) * 1_000_000_000
        if _high >= 0 {
            // 10^9 * 2^64 attoseconds or more are 2^64 nanoseconds or more.
            guard _high < 1_000_000_000 else { return .max }
            let nanoseconds = UInt64(1_000_000_000).dividingFullWidth((high: UInt64(_high), low: _low)).quotient
            return nanoseconds >= bound ? .max : Int64(nanoseconds)
        }
        guard _high > -1_000_000_000 else { return .min }
        // The magnitude, by two's complement: its high word is below 10^9, so the quotient fits.
        let low = ~_low &+ 1
        let high = ~UInt64(bitPattern: _high) &+ (low == 0 ? 1 : 0)
        let nanoseconds = UInt64(1_000_000_000).dividingFullWidth((high: high, low: low)).quotient
        return nanoseconds >= bound ? .min : -Int64(nanoseconds)
    }
}
