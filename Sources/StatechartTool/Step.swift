import Foundation

/// One step of a run: an event to send or time to let pass.
public enum Step: Equatable, Sendable {
    /// Send the event with this name.
    case event(String)
    /// Move the virtual clock forward.
    case wait(Duration, written: String)

    /// How the step is shown in a run's output.
    public var label: String {
        switch self {
        case .event(let name): name
        case .wait(_, let written): "wait \(written)"
        }
    }

    /// A step from its written form: `wait 5s`, `+5s` or an event name.
    ///
    /// - Throws: ``CommandError`` for a wait whose duration cannot be read.
    public init(parsing text: String) throws(CommandError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var duration: String?
        if trimmed.hasPrefix("+") {
            duration = String(trimmed.dropFirst())
        } else if trimmed == "wait" || trimmed.hasPrefix("wait ") {
            duration = trimmed.dropFirst(4).trimmingCharacters(in: .whitespaces)
        }
        guard let duration else {
            self = .event(trimmed)
            return
        }
        guard let value = Self.duration(duration) else {
            throw CommandError(
                "'\(trimmed)' does not say how long to wait: write a duration such as 5s, 250ms, 2m or 1h")
        }
        self = .wait(value, written: duration)
    }

    /// The steps of a script: one per line; blank lines and lines starting with `#` are skipped.
    ///
    /// - Throws: ``CommandError`` naming the line of a step that cannot be read.
    public static func script(_ text: String, file: String) throws(CommandError) -> [Step] {
        var steps: [Step] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            do {
                steps.append(try Step(parsing: trimmed))
            } catch {
                throw CommandError("\(file):\(number + 1): \(error.description)")
            }
        }
        return steps
    }

    /// `5s`, `250ms`, `2m`, `1h`, `1.5s`.
    public static func duration(_ text: String) -> Duration? {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for unit in units where text.hasSuffix(unit.suffix) {
            guard let value = Double(text.dropLast(unit.suffix.count)), value >= 0 else { return nil }
            let nanoseconds = (value * unit.seconds * 1e9).rounded()
            guard nanoseconds.isFinite, nanoseconds < 9e18 else { return nil }
            return .nanoseconds(Int64(nanoseconds))
        }
        return nil
    }
}
