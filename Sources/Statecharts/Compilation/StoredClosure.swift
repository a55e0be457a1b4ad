/// A user's action kept in a chart's table.
///
/// The struct matters: a closure stored directly in a generic container (an `Array` of closures)
/// is kept at the container's abstraction, so every call from the table goes through a
/// reabstraction thunk with a heap-allocated context to retain and release. A closure stored as
/// a field of a struct keeps its own abstraction and is called directly.
@usableFromInline
struct StoredAction<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    @usableFromInline let run: StatechartAction<State, Event, Context>
    /// What the action does, when it was written as data (``OnEntry/init(send:after:id:)``,
    /// ``OnExit/init(cancel:)``): the quick step then does it without calling ``run``.
    @usableFromInline let declared: DeclaredTimerAction<Event>?

    @inlinable
    init(_ run: @escaping StatechartAction<State, Event, Context>) {
        self.run = run
        declared = nil
    }

    /// An action written as data: `run` does what `declared` says, for the general microstep.
    init(_ run: @escaping StatechartAction<State, Event, Context>, declared: DeclaredTimerAction<Event>?) {
        self.run = run
        self.declared = declared
    }

    /// Wraps `run` if there is one. (Not `Optional.map`, whose generic closure would reabstract it.)
    static func wrapping(_ run: StatechartAction<State, Event, Context>?) -> Self? {
        if let run { Self(run) } else { nil }
    }
}

/// A user's guard kept in a chart's table; see ``StoredAction`` for why it is a struct.
@usableFromInline
struct StoredGuard<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    @usableFromInline let evaluate: StatechartGuard<State, Event, Context>

    @inlinable
    init(_ evaluate: @escaping StatechartGuard<State, Event, Context>) { self.evaluate = evaluate }

    /// Wraps `evaluate` if there is one. (Not `Optional.map`, whose generic closure would
    /// reabstract it.)
    static func wrapping(_ evaluate: StatechartGuard<State, Event, Context>?) -> Self? {
        if let evaluate { Self(evaluate) } else { nil }
    }
}

/// A final state's done data maker kept in a chart's table; see ``StoredAction`` for why it is a
/// struct.
@usableFromInline
struct StoredDoneData<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    @usableFromInline let make: @Sendable (borrowing Scope<State, Event, Context>) throws -> any Sendable

    @inlinable
    init(_ make: @escaping @Sendable (borrowing Scope<State, Event, Context>) throws -> any Sendable) {
        self.make = make
    }
}

/// An action in a chart's action table, where the per-event path calls it.
///
/// Not copyable, so that ``run(_:)`` borrows the closure where the table holds it: calling a
/// copyable stored closure through a pointer copies it first, which retains its context before the
/// call and releases it after, two atomic operations on every action run.
@usableFromInline
struct TabledAction<State: Hashable, Event: StatechartEvent, Context>: ~Copyable where Event.Kind: Hashable {
    @usableFromInline let body: StatechartAction<State, Event, Context>

    @inlinable
    init(_ action: StoredAction<State, Event, Context>) { body = action.run }

    /// Runs the action in `scope`.
    @inlinable @inline(__always)
    borrowing func run(_ scope: inout Scope<State, Event, Context>) throws { try body(&scope) }
}

/// A guard in a chart's guard table; not copyable for the reason ``TabledAction`` gives.
@usableFromInline
struct TabledGuard<State: Hashable, Event: StatechartEvent, Context>: ~Copyable where Event.Kind: Hashable {
    @usableFromInline let body: StatechartGuard<State, Event, Context>

    @inlinable
    init(_ condition: StoredGuard<State, Event, Context>) { body = condition.evaluate }

    /// Whether the guard holds in `scope`.
    @inlinable @inline(__always)
    borrowing func holds(in scope: borrowing Scope<State, Event, Context>) throws -> Bool { try body(scope) }
}

extension StoredAction: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension StoredGuard: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension StoredDoneData: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension TabledAction: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}

extension TabledGuard: Sendable where State: Sendable, Event: Sendable, Event.Kind: Sendable, Context: Sendable {}
