/// The clock a live machine's time follows: its ``TimerWheel``'s clock, measured from the moment
/// the machine's time was zero.
///
/// A live machine reads it only when a step needs the time (a timer is pending, a timer is being
/// armed, or an action reads ``Scope/now``), so that an event that arms nothing costs no clock read.
@usableFromInline
final class LiveClock: Sendable {
    @usableFromInline let wheel: TimerWheel
    /// The wheel's time when the machine's time was zero.
    @usableFromInline let origin: Duration

    @usableFromInline
    init(wheel: TimerWheel, origin: Duration) {
        self.wheel = wheel
        self.origin = origin
    }

    /// The machine's time on the clock now.
    @usableFromInline
    var elapsed: Duration { wheel.now - origin }

    /// The machine's time on the clock now, in nanoseconds.
    @usableFromInline
    func elapsedNanoseconds() -> Int64 { elapsed.clampedNanoseconds }
}
