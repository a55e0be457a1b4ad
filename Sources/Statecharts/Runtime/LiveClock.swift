/// For a machine inside a live runtime (``IsolatedStatechart``, ``StatechartActor``): the wheel
/// whose clock its time follows, and the wheel's time, in nanoseconds, when the machine's time was
/// zero.
///
/// One reference in the machine rather than two fields keeps ``StateMachine`` within the seven
/// words that Swift copies field by field (see ``PackedMachineFields``); the live runtime makes
/// one when it takes a machine, and never changes it.
@usableFromInline
final class LiveClock: Sendable {
    /// The wheel whose clock the machine's time follows.
    @usableFromInline let wheel: TimerWheel
    /// The wheel's time, in nanoseconds, when the machine's time was zero.
    @usableFromInline let origin: Int64

    @usableFromInline
    init(wheel: TimerWheel, origin: Int64) {
        self.wheel = wheel
        self.origin = origin
    }

    /// The machine's time on the wheel's clock now, in nanoseconds.
    @inlinable
    var elapsed: Int64 { wheel.now.clampedNanoseconds &- origin }
}
