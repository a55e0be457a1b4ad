/// What few live machines use, kept apart so that the others stay small: the inspection hook, the
/// tasks of running invocations and the continuations of snapshot streams.
@usableFromInline
final class LiveAttachments<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    @usableFromInline let inspect: (@Sendable (MachineInspection<State, Event>) -> Void)?
    @usableFromInline var tasks: [InvocationID: Task<Void, Never>] = [:]
    @usableFromInline var streams: [AsyncStream<MachineSnapshot<State, Context>>.Continuation] = []
    /// The microsteps taken since the last snapshot was published, while streams are read.
    @usableFromInline var taken: [Microstep<State>] = []
    /// The system the machine has joined, and its id there (``StatechartSystem``).
    @usableFromInline var membership: SystemMembership?
    /// For a child machine: where its sends to `#_parent` and its finishing go.
    @usableFromInline var parent: ParentChannel?
    /// The child machines it invoked that are running, by name.
    @usableFromInline var children: InvokedChildren?
    /// Its delayed sends to its parent and children, waiting on its clock.
    @usableFromInline var delayedPosts: DelayedPosts?
    /// Whether every step must be settled: snapshots are read, or a parent waits for the machine
    /// to finish.
    @inlinable
    var settlesEveryStep: Bool { !streams.isEmpty || parent != nil }
    /// Whether the steps report to an observer: the inspection hook is set, or snapshots are read
    /// (which carry the microsteps each step took).
    @inlinable
    var watchesSteps: Bool { inspect != nil || !streams.isEmpty }

    /// The registry of invoked children, made on first use.
    @usableFromInline
    func invokedChildren() -> InvokedChildren {
        if let children { return children }
        let created = InvokedChildren()
        children = created
        return created
    }

    /// The delayed sends to parent and children, made on first use.
    @usableFromInline
    func mutableDelayedPosts() -> DelayedPosts {
        if let delayedPosts { return delayedPosts }
        let created = DelayedPosts()
        delayedPosts = created
        return created
    }

    @usableFromInline
    init(inspect: (@Sendable (MachineInspection<State, Event>) -> Void)?) { self.inspect = inspect }
}
