import Statecharts

extension Statechart {
    /// Searches the machines of this chart with `context` for paths covering `coverage`, trying
    /// `events` from each state and letting time pass to each pending timer.
    ///
    /// Two states of the search with the same configuration and pending timers are told apart
    /// by `key` of their contexts, so that a guard on the context is tried with each value a
    /// path gave it. By default a `Hashable` context is its own key and another context is not
    /// looked at (its guards pass or fail with the values of the first path to a configuration).
    /// Give a key that leaves out what grows without bound, such as a counter of ticks, or the
    /// search runs to its depth.
    ///
    /// - Parameters:
    ///   - coverage: Every configuration, or every transition.
    ///   - context: The context each machine starts with.
    ///   - events: The events to try, one value per kind you want tried (an event's data is what
    ///     this value carries).
    ///   - key: What of the context tells two states apart; the context itself, when it is
    ///     `Hashable` and no key is given.
    ///   - maximumDepth: The most steps in a path.
    /// - Throws: What a machine's start throws.
    public func searchPaths(
        covering coverage: PathCoverage, context: Context, events: [Event],
        key: ((Context) -> AnyHashable)? = nil, maximumDepth: Int = 16
    ) throws -> PathSearch<State, Event> {
        // A Hashable context is its own key; another is not looked at.
        let key = key ?? { context in (context as? any Hashable).map { AnyHashable($0) } ?? AnyHashable(0) }
        var explorer = PathExplorer(events: events, key: key) {
            self.makeMachine(context: context)
        }
        explorer.maximumDepth = maximumDepth
        return try explorer.paths(covering: coverage)
    }

    /// Paths covering `coverage` from machines with `context`, trying `events`; none when the
    /// chart cannot start. For swift-testing arguments: `@Test(arguments: chart.paths(...))`.
    ///
    /// - Parameters:
    ///   - coverage: Every configuration, or every transition.
    ///   - context: The context each machine starts with.
    ///   - events: The events to try, one value per kind you want tried.
    ///   - key: What of the context tells two states of the search apart, as in
    ///     ``searchPaths(covering:context:events:key:maximumDepth:)``.
    public func paths(
        covering coverage: PathCoverage, context: Context, events: [Event], key: ((Context) -> AnyHashable)? = nil
    ) -> [ChartPath<State, Event>] {
        (try? searchPaths(covering: coverage, context: context, events: events, key: key).paths) ?? []
    }
}

extension Statechart where Event: CaseIterable {
    /// Paths covering `coverage` from machines with `context`, trying every event.
    public func paths(covering coverage: PathCoverage, context: Context) -> [ChartPath<State, Event>] {
        paths(covering: coverage, context: context, events: Array(Event.allCases))
    }
}

extension Statechart where Event: CaseIterable, Context == Void {
    /// Paths covering `coverage`, trying every event: `@Test(arguments: chart.paths(covering: .transitions))`.
    public func paths(covering coverage: PathCoverage) -> [ChartPath<State, Event>] {
        paths(covering: coverage, context: (), events: Array(Event.allCases))
    }
}

extension StateMachine {
    /// Takes the steps of `path`: sends its events and lets its time pass.
    ///
    /// - Throws: What `send(_:)` or `advance(by:)` throws.
    public mutating func follow(_ path: ChartPath<State, Event>) throws(MachineError<State, Event>) {
        for step in path.steps {
            switch step {
            case .send(let event): try send(event)
            case .wait(let duration): try advance(by: duration)
            }
        }
    }
}
