/// A small, fast, seedable random number generator (SplitMix64), so that generated charts and runs
/// are the same on every machine for a seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// A tape of `count` choices for ``RandomChart``.
    public mutating func tape(count: Int) -> [Int] {
        (0..<count).map { _ in Int.random(in: 0..<1_000, using: &self) }
    }
}
