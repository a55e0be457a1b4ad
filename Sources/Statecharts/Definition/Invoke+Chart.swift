extension Invoke where Event: Sendable, Event.Kind: Sendable {
    /// Another chart, run as a child machine while the enclosing state is active.
    ///
    /// A live machine (``StatechartActor``, ``IsolatedStatechart``) starts the child when the step
    /// that entered the state is complete, as a ``StatechartActor`` on its own ``TimerWheel``, and
    /// connects the two:
    /// - the child reaches its parent with `scope.send(event, to: "#_parent")`: the parent
    ///   processes each such event as an event from outside, in the order the child sent them;
    /// - the parent reaches the child with `scope.send(event, to: "#_" + id)`, where `id` is this
    ///   invocation's name: the child processes it on its actor, in order;
    /// - delayed sends both ways wait on the shared clock, and `scope.cancel(id:)` withdraws them;
    /// - when the child reaches a top-level ``Final`` state, the invocation ends with the event
    ///   `onDone` makes of the child's context, delivered after every event the child sent;
    /// - exiting the state stops the child, with its timers and its own invocations. What it
    ///   sent and the parent has not processed yet is dropped;
    /// - the child is not part of its parent's archive: a parent restored with its invocations
    ///   restarted (``InvocationRestoration/restart``) starts a new child.
    ///
    /// ```swift
    /// StateNode(.downloading) {
    ///     Invoke("download", chart: downloadChart, context: { Download(url: $0.url) }) { download in
    ///         .downloaded(download.bytes)
    ///     }
    ///     On(.progress) { $0.context.progress += 1 }
    ///     On(.cancel) { $0.send(.stop, to: "#_download") }
    ///     On(.downloaded, to: .done)
    /// }
    /// ```
    ///
    /// Parent and child share the event type. An error the child's start throws ends the
    /// invocation with `error.execution`. A send to `#_parent` from a child whose work runs outside
    /// a live machine (``InvocationStart/run()`` called by hand) reaches nobody: the child gets
    /// `error.communication`.
    ///
    /// - Parameters:
    ///   - id: The name the parent reaches the child by (`#_` + `id`).
    ///   - chart: The child's chart.
    ///   - file: The file the element is written in; the compiler fills it in, for diagnostics.
    ///   - line: The line the element is written on; filled in by the compiler.
    ///   - column: The column the element is written at; filled in by the compiler.
    ///   - context: Makes the child's initial context from the parent's, when the child starts.
    ///   - onDone: Makes the event the parent gets when the child finishes, from the child's
    ///     context then; `nil` (the default), or a `nil` result, sends none.
    public init<ChildState: Hashable & Sendable, ChildContext: Sendable>(
        _ id: String, chart: Statechart<ChildState, Event, ChildContext>, file: String = #fileID,
        line: Int = #line, column: Int = #column, context: @escaping @Sendable (Context) -> ChildContext,
        onDone: (@Sendable (ChildContext) -> Event?)? = nil
    ) {
        var definition = InvocationDefinition<State, Event, Context>(
            id: id,
            work: { parent in try await runChildMachine(chart, context: context(parent), name: id, onDone: onDone) },
            onError: nil, describe: nil, beforeExternalEvent: nil,
            location: SourcePosition(file: file, line: line, column: column))
        definition.startsChildMachine = true
        element = ChartElement(.invoke(definition))
    }
}
