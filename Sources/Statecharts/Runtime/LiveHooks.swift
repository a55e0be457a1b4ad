/// The specialised handlers of a chart's live machines, one per kind of owner, kept by the chart.
///
/// A timer reaches an owner (``StatechartActor``, ``IsolatedStatechart``) through a protocol, and an
/// invocation's outcome through a task: both land in code that is generic, not specialised for the
/// chart's types. The owners' initialisers are inlined where the types are known; each installs,
/// once per chart, a handler made there, and the callbacks call it. Kept per chart rather than per
/// machine, so that a million machines do not each hold one.
@usableFromInline
final class LiveHooks: Sendable {
    /// The handlers installed so far, one per kind of owner.
    private struct Hooks {
        /// The handler of ``StatechartActor``s.
        var actor: AnyObject?
        /// The handler of ``IsolatedStatechart``s.
        var isolated: AnyObject?
    }

    /// Behind a lock rather than in two `Atomic`s, which need macOS 15 and iOS 18: the package runs
    /// on macOS 14 and iOS 17. A timer's callback reads it once.
    private let hooks = Locked(Hooks())

    @usableFromInline
    init() {}

    /// Installs the handler `make` makes, unless one is installed already.
    @usableFromInline
    func installActorHook(_ make: () -> AnyObject) {
        hooks.withLock { if $0.actor == nil { $0.actor = make() } }
    }

    /// Installs the handler `make` makes, unless one is installed already.
    @usableFromInline
    func installIsolatedHook(_ make: () -> AnyObject) {
        hooks.withLock { if $0.isolated == nil { $0.isolated = make() } }
    }

    /// The handler of the actors, of the type that installed it.
    func actorHook<Hook: AnyObject>(as type: Hook.Type) -> Hook? {
        hooks.withLock { $0.actor } as? Hook
    }

    /// The handler of the isolated machines, of the type that installed it.
    func isolatedHook<Hook: AnyObject>(as type: Hook.Type) -> Hook? {
        hooks.withLock { $0.isolated } as? Hook
    }
}
