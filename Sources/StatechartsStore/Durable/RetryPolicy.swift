#if Store
import Foundation

/// How often, how long and how far apart a durable fleet tries to deliver an effect.
///
/// Attempt `n` that fails is tried again after `initialDelay × backoffMultiplier^(n-1)`, at most
/// `maximumDelay`; after `maximumAttempts` failed attempts the effect is a dead letter. An attempt
/// that takes longer than `timeLimit` is cancelled and counts as failed; a worker that dies in an
/// attempt holds the effect for `timeLimit` plus ``DurableOptions/leaseMargin``, then any worker
/// tries it again.
public struct RetryPolicy: Sendable, Hashable {
    /// At most this many attempts, the first included.
    public var maximumAttempts: Int
    /// The wait after the first failed attempt.
    public var initialDelay: Duration
    /// The longest wait between attempts.
    public var maximumDelay: Duration
    /// How much longer each wait is than the one before.
    public var backoffMultiplier: Double
    /// The longest an attempt may take.
    public var timeLimit: Duration

    /// A policy from its parts; the defaults try 8 times over about four minutes, waiting 1 s,
    /// then 2 s, 4 s and so on, up to 5 minutes between attempts, each attempt at most 30 s.
    public init(
        maximumAttempts: Int = 8, initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(300),
        backoffMultiplier: Double = 2, timeLimit: Duration = .seconds(30)
    ) {
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.backoffMultiplier = backoffMultiplier
        self.timeLimit = timeLimit
    }

    /// The wait after failed attempt `attempt` (from 1), in nanoseconds.
    func delay(afterAttempt attempt: Int) -> Int64 {
        let initial = Double(initialDelay.nanosecondsSinceZero)
        let maximum = Double(maximumDelay.nanosecondsSinceZero)
        let grown = initial * pow(backoffMultiplier, Double(max(0, attempt - 1)))
        return Int64(min(maximum, grown.isFinite ? grown : maximum))
    }

    /// Checks that the policy can be followed.
    func validated(_ name: String) throws(StoreError) -> Self {
        if maximumAttempts < 1 {
            throw .invalidConfiguration("\(name): maximumAttempts must be at least 1, not \(maximumAttempts)")
        }
        if initialDelay < .zero || maximumDelay < initialDelay {
            throw .invalidConfiguration("\(name): the delays must satisfy 0 ≤ initialDelay ≤ maximumDelay")
        }
        if !(backoffMultiplier >= 1) || !backoffMultiplier.isFinite {
            throw .invalidConfiguration("\(name): backoffMultiplier must be a finite number of at least 1")
        }
        if timeLimit <= .zero { throw .invalidConfiguration("\(name): timeLimit must be positive") }
        return self
    }
}
#endif
