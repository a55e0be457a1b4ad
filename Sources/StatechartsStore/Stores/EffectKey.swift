#if Store
/// The identity of one effect: the machine, the journal entry whose step asked for it, and its
/// place among that step's effects. The same on every attempt, so that a receiver can use it as an
/// idempotency key.
public struct EffectKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The machine.
    public var machine: String
    /// The number of the machine's journal entry whose step asked for it.
    public var sequence: Int64
    /// Its place among the effects of that step, from 0.
    public var index: Int

    /// A key from its parts.
    public init(machine: String, sequence: Int64, index: Int) {
        self.machine = machine
        self.sequence = sequence
        self.index = index
    }

    /// Reads `machine/sequence/index`, the form ``description`` writes; `nil` for any other text.
    /// The machine's identifier may itself contain `/`: the last two parts are the numbers.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, let index = Int(parts[parts.count - 1]), index >= 0,
            let sequence = Int64(parts[parts.count - 2]), sequence >= 0
        else { return nil }
        self.init(machine: parts.dropLast(2).joined(separator: "/"), sequence: sequence, index: index)
    }

    /// `machine/sequence/index`.
    public var description: String { "\(machine)/\(sequence)/\(index)" }

    /// In the order the machine asked for them.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.machine, lhs.sequence, lhs.index) < (rhs.machine, rhs.sequence, rhs.index)
    }
}
#endif
