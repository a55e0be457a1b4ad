import StatechartsTesting
import Testing

@testable import Statecharts

/// A delay becomes machine time through `Duration.clampedNanoseconds`, which divides the
/// attoseconds' 128 bits in one full-width division. It must give what the definition gives:
/// whole nanoseconds, truncated toward zero, clamped to `Int64.max` from `Int64.max / 10^9`
/// seconds on and to `Int64.min` from its negation down, for every duration, including those
/// whose seconds an `Int64` cannot hold.
@Suite struct DurationNanosecondsTests {
    /// The definition, from the duration's components; clamped by sign where the components
    /// would not fit an `Int64` (about 2^63 seconds, a high word of 5 * 10^17 and more).
    static func reference(_ duration: Duration) -> Int64 {
        if duration._high >= 500_000_000_000_000_000 { return .max }
        if duration._high <= -500_000_000_000_000_000 { return .min }
        let (seconds, attoseconds) = duration.components
        let limit = Int64.max / 1_000_000_000
        if seconds >= limit { return .max }
        if seconds <= -limit { return .min }
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    @Test("durations that delays use convert exactly, as the definition says")
    func commonDelays() {
        let cases: [(Duration, Int64)] = [
            (.zero, 0), (.nanoseconds(1), 1), (.milliseconds(1), 1_000_000), (.seconds(1), 1_000_000_000),
            (.seconds(300), 300_000_000_000), (.seconds(86_400 * 365), 31_536_000_000_000_000),
            (Duration(secondsComponent: 0, attosecondsComponent: 999_999_999), 0),
            (Duration(secondsComponent: 2, attosecondsComponent: 1_999_999_999), 2_000_000_001),
        ]
        for (duration, nanoseconds) in cases {
            #expect(duration.clampedNanoseconds == nanoseconds, "\(duration)")
            #expect(Self.reference(duration) == nanoseconds, "\(duration)")
        }
    }

    @Test("at the clamping limits, and for negative durations, the conversion is the definition's")
    func limits() {
        let limit = Int64.max / 1_000_000_000
        let cases: [Duration] = [
            .seconds(limit - 1), .seconds(limit), .seconds(limit + 1), .seconds(Int64.max),
            Duration(secondsComponent: limit - 1, attosecondsComponent: 999_999_999_999_999_999),
            .seconds(-1), .nanoseconds(-1), .seconds(-limit), .seconds(-limit + 1), .seconds(Int64.min),
            Duration(_high: 999_999_999, low: .max), Duration(_high: 1_000_000_000, low: 0),
            Duration(_high: -999_999_999, low: 0), Duration(_high: -1_000_000_000, low: 0),
            Duration(_high: -1, low: 0), Duration(_high: -1, low: .max),
        ]
        for duration in cases {
            #expect(duration.clampedNanoseconds == Self.reference(duration), "\(duration)")
        }
    }

    @Test("durations too long for components' seconds clamp, and do not trap")
    func beyondComponents() {
        let longest = Duration.seconds(Int64.max)
        #expect((longest + longest).clampedNanoseconds == .max)
        #expect((.zero - longest - longest).clampedNanoseconds == .min)
        #expect(Duration(_high: .max, low: .max).clampedNanoseconds == .max)
        #expect(Duration(_high: .min, low: 0).clampedNanoseconds == .min)
    }

    @Test("random durations, of every size and sign, convert as the definition says", arguments: 0..<4)
    func randomDurations(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        for _ in 0..<5_000 {
            // Highs near zero (the fast path and its edge), and any at all.
            let high: Int64 =
                switch generator.next() % 3 {
                case 0: Int64(truncatingIfNeeded: generator.next() % 2_000_000_000) - 1_000_000_000
                case 1:
                    Int64(truncatingIfNeeded: generator.next() % 4)
                        + (generator.next() % 2 == 0 ? 999_999_998 : -1_000_000_001)
                default: Int64(truncatingIfNeeded: generator.next())
                }
            let duration = Duration(_high: high, low: generator.next())
            #expect(duration.clampedNanoseconds == Self.reference(duration), "\(duration)")
        }
    }
}
