extension Statechart {
    /// The work of an ``Invoke`` and its error handler, for a runtime that runs an invocation
    /// again after the machine that started it is gone (a durable fleet's workers).
    package struct InvocationWork: Sendable {
        /// The work, run on the context the invocation started with.
        package let work: @Sendable (Context) async throws -> Event?
        /// Turns an error the work throws into an event, if the ``Invoke`` has one.
        package let onError: (@Sendable (any Error) -> Event?)?
    }

    /// The work of the invocation at `definition` among the chart's (``InvocationStart``'s
    /// `definition`), when it belongs to `state`, bears the name `name` and has work: `nil` for a
    /// described invocation, or when the chart is not the one that started it.
    package func invocationWork(at definition: Int, of state: State?, named name: String?) -> InvocationWork? {
        guard storage.invocations.indices.contains(definition) else { return nil }
        let invocation = storage.invocations[definition]
        guard invocation.id == name, let work = invocation.work, !invocation.startsChildMachine else { return nil }
        guard let stateIndex = state.flatMap({ storage.stateIndices[$0] }) else { return nil }
        let first = Int(storage.invocationOffsets[Int(stateIndex)])
        let end = Int(storage.invocationOffsets[Int(stateIndex) + 1])
        guard (first..<end).contains(definition) else { return nil }
        return InvocationWork(work: work, onError: invocation.onError)
    }
}
