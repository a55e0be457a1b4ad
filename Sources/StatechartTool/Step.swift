#if Tools
import Foundation
import StatechartsSCXML

/// One step of a run: an event to send or time to let pass.
public enum Step: Equatable, Sendable {
    /// Send the event with this name, and this data (`_event.data`) if there is any.
    case event(String, data: SCXMLValue? = nil)
    /// Move the virtual clock forward.
    case wait(Duration, written: String)

    /// How the step is shown in a run's output.
    public var label: String {
        switch self {
        case .event(let name, nil): name
        case .event(let name, let data?): "\(name)=\(data.json)"
        case .wait(_, let written): "wait \(written)"
        }
    }

    /// A step from its written form: `wait 5s`, `+5s`, an event name, or an event name with its
    /// data as JSON after `=`: `login={"user": "ann"}`.
    ///
    /// - Throws: ``CommandError`` for a wait whose duration cannot be read, or data that is not JSON.
    public init(parsing text: String) throws(CommandError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var duration: String?
        if trimmed.hasPrefix("+") {
            duration = String(trimmed.dropFirst())
        } else if trimmed == "wait" || trimmed.hasPrefix("wait ") {
            duration = trimmed.dropFirst(4).trimmingCharacters(in: .whitespaces)
        }
        guard let duration else {
            guard let equals = trimmed.firstIndex(of: "=") else {
                self = .event(trimmed)
                return
            }
            let name = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            let json = String(trimmed[trimmed.index(after: equals)...])
            guard !name.isEmpty else {
                throw CommandError(
                    "'\(trimmed)' has data but no event name: write NAME=JSON, such as go={\"speed\": 2}")
            }
            guard let data = SCXMLValue(json: json) else {
                throw CommandError(
                    "the data of event '\(name)' is not JSON: \(json) (write it as JSON: 2, \"text\", [1, 2] or {\"key\": 1})"
                )
            }
            self = .event(name, data: data)
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
#endif
