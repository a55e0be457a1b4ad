import Statecharts

// What the examples' tests share.

/// A flag set from any task.
nonisolated final class Flag: Sendable {
    private let value = Locked(false)

    init() {}

    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

/// Whether `condition` holds within five seconds of real time.
nonisolated func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<5000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}

/// What an example printed, line by line, from any task.
nonisolated final class Printed: Sendable {
    private let lines = Locked<[String]>([])

    init() {}

    /// Records one line, as `print` writes `items`: an example's `print` when the test names a
    /// `Printed` `print`.
    func callAsFunction(_ items: Any...) { record(items) }

    /// Records one line, as `print` writes `items`.
    func record(_ items: [Any]) {
        let line = items.map { "\($0)" }.joined(separator: " ")
        lines.withLock { $0.append(line) }
    }

    /// Every line, in order.
    var all: [String] { lines.withLock { $0 } }
}
