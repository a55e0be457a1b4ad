/// A machine's small fields in one word: its microstep limit, status, policy for unhandled events
/// and a live runtime's flags.
///
/// Kept as one integer so that a ``StateMachine`` is at most seven machine words when exploded
/// into its scalar fields: Swift copies and destroys a value of eight or more in place
/// (appending a machine to an array, handing it out) through its generic value witnesses, at
/// several times the cost of copying the fields themselves.
///
/// Bits 0–7 hold the status (the lowest byte, so that asking whether the machine runs is one
/// byte compared in memory, as it was for a field of its own), 8–15 the policy, 16–23 the live
/// runtime's flags, bit 24 whether the machine's time is stale, and 32–63 the limit.
@usableFromInline
struct PackedMachineFields: Sendable {
    @usableFromInline var bits: UInt64

    @usableFromInline static let policyShift: UInt64 = 8
    @usableFromInline static let liveFlagsShift: UInt64 = 16
    @usableFromInline static let staleBit: UInt64 = 1 << 24
    @usableFromInline static let limitShift: UInt64 = 32

    /// A machine not started yet, with `limit` and `unhandledEvents`.
    @inlinable
    init(limit: Int32, unhandledEvents: UnhandledEventPolicy) {
        bits = UInt64(UInt32(bitPattern: limit)) << Self.limitShift
        self.unhandledEvents = unhandledEvents
    }

    /// The most microsteps one call may take.
    @inlinable
    var limit: Int32 {
        get { Int32(truncatingIfNeeded: bits >> Self.limitShift) }
        set { bits = bits & 0xFFFF_FFFF | UInt64(UInt32(bitPattern: newValue)) << Self.limitShift }
    }

    /// The status's code: 0 not started, 1 running, 2 finished.
    @inlinable
    var statusCode: UInt8 { UInt8(truncatingIfNeeded: bits) }

    /// Whether the machine is running, read as one comparison.
    @inlinable
    var isRunning: Bool { statusCode == 1 }

    /// Whether the machine has started, is running or has finished.
    @inlinable
    var status: MachineStatus {
        get {
            switch statusCode {
            case 0: .notStarted
            case 1: .running
            default: .finished
            }
        }
        set {
            let code: UInt64
            switch newValue {
            case .notStarted: code = 0
            case .running: code = 1
            case .finished: code = 2
            }
            bits = bits & ~0xFF | code
        }
    }

    /// What the machine does with an event that no transition handles.
    @inlinable
    var unhandledEvents: UnhandledEventPolicy {
        get { UInt8(truncatingIfNeeded: bits >> Self.policyShift) == 0 ? .ignore : .reject }
        set {
            let code: UInt64 = newValue == .ignore ? 0 : 1
            bits = bits & ~(0xFF << Self.policyShift) | code << Self.policyShift
        }
    }

    /// A live runtime's own flags (see ``LiveMachine``).
    @inlinable
    var liveFlags: UInt8 {
        get { UInt8(truncatingIfNeeded: bits >> Self.liveFlagsShift) }
        set { bits = bits & ~(0xFF << Self.liveFlagsShift) | UInt64(newValue) << Self.liveFlagsShift }
    }

    /// Whether the machine's time may be behind its live clock's.
    @inlinable
    var timeIsStale: Bool {
        get { bits & Self.staleBit != 0 }
        set { bits = newValue ? bits | Self.staleBit : bits & ~Self.staleBit }
    }
}
