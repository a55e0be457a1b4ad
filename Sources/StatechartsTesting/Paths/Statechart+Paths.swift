import Statecharts

extension Statechart {
    /// Searches the machines of this chart with `context` for paths covering `coverage`, trying
    /// `events` from each state and letting time pass to each pending timer.
    ///
    /// - Parameters:
    ///   - coverage: Every configuration, or every transition.
    ///   - context: The context each machine starts with.
    ///   - events: The events to try, one value per kind you want tried (an event's data is what
    ///     this value carries).
    ///   - maximumDepth: The most steps in a path.
    /// - Throws: What a machine's start throws.
    public func searchPaths(
        covering coverage: PathCoverage, context: Context, events: [Event], maximumDepth: Int = 16
    ) throws -> PathSearch<State, Event> {
        var explorer = PathExplorer(events: events) { self.makeMachine(context: context) }
        explorer.maximumDepth = maximumDepth
        return try explorer.paths(covering: coverage)
    }

    /// Paths covering `coverage` from machines with `context`, trying `events`; none when the
    /// chart cannot start. For swift-testing arguments: `@Test(arguments: chart.paths(...))`.
    public func paths(covering coverage: PathCoverage, context: Context, events: [Event]) -> [ChartPath<State, Event>] {
        (try? searchPaths(covering: coverage, context: context, events: events).paths) ?? []
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
