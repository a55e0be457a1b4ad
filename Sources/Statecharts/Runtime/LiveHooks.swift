import Synchronization

/// The specialised handlers of a chart's live machines, one per kind of owner, kept by the chart.
///
/// A timer reaches an owner (``StatechartActor``, ``IsolatedStatechart``) through a protocol, and an
/// invocation's outcome through a task: both land in code that is generic, not specialised for the
/// chart's types. The owners' initialisers are inlined where the types are known; each installs,
/// once per chart, a handler made there, and the callbacks call it. Kept per chart rather than per
/// machine, so that a million machines do not each hold one.
@usableFromInline
final class LiveHooks: Sendable {
    /// The handler of ``StatechartActor``s: a retained object's address, or zero.
    private let actor = Atomic<Int>(0)
    /// The handler of ``IsolatedStatechart``s: a retained object's address, or zero.
    private let isolated = Atomic<Int>(0)

    @usableFromInline
    init() {}

    deinit {
        for slot in [actor.load(ordering: .acquiring), isolated.load(ordering: .acquiring)] where slot != 0 {
            if let pointer = UnsafeRawPointer(bitPattern: slot) { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
        }
    }

    /// Installs the handler `make` makes, unless one is installed already.
    @usableFromInline
    func installActorHook(_ make: () -> AnyObject) {
        if actor.load(ordering: .acquiring) == 0 { install(make(), in: actor) }
    }

    /// Installs the handler `make` makes, unless one is installed already.
    @usableFromInline
    func installIsolatedHook(_ make: () -> AnyObject) {
        if isolated.load(ordering: .acquiring) == 0 { install(make(), in: isolated) }
    }

    private func install(_ hook: AnyObject, in slot: borrowing Atomic<Int>) {
        let address = Int(bitPattern: Unmanaged.passRetained(hook).toOpaque())
        let (exchanged, _) = slot.compareExchange(
            expected: 0, desired: address, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
        if !exchanged, let pointer = UnsafeRawPointer(bitPattern: address) {
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
    }

    /// The handler of the actors, of the type that installed it.
    func actorHook<Hook: AnyObject>(as type: Hook.Type) -> Hook? {
        Self.hook(at: actor.load(ordering: .acquiring), as: type)
    }

    /// The handler of the isolated machines, of the type that installed it.
    func isolatedHook<Hook: AnyObject>(as type: Hook.Type) -> Hook? {
        Self.hook(at: isolated.load(ordering: .acquiring), as: type)
    }

    private static func hook<Hook: AnyObject>(at address: Int, as type: Hook.Type) -> Hook? {
        UnsafeRawPointer(bitPattern: address).map { Unmanaged<Hook>.fromOpaque($0).takeUnretainedValue() }
    }
}
