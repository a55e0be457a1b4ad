import Statecharts
import StatechartsSCXML

/// Runs a chart generated from a document (`statechart generate`, the StatechartsGenerator
/// plugin) beside the interpreter running the document itself, with the same events and the same
/// virtual time, and compares their active states after each step.
///
/// ```swift
/// let document = try SCXMLChart.load(contentsOf: URL(fileURLWithPath: "media-player.scxml"))
/// let result = InterpreterComparison.compare(
///     try MediaPlayer.chart(), with: document, steps: [.event("play"), .wait(.seconds(3)), .event("pause")])
/// #expect(result.mismatch == nil)
/// ```
///
/// After the steps, both run on to each next pending timer (at most `timerSteps` times), so that
/// delayed events are compared too. An event whose name the generated `Event` enum lacks (the
/// document neither handles nor sends it) goes to the interpreter alone: the generated chart
/// cannot be sent it. When the interpreter ignores it too, the comparison goes on; when a
/// transition takes it (by a wildcard or a prefix such as `foo` for `foo.bar`), the comparison
/// stops there and says so in ``Result/unrepresentable``: such a session cannot be written with
/// the generated types.
public enum InterpreterComparison {
    /// What both machines are given.
    public enum Step: Sendable, Hashable, CustomStringConvertible {
        /// An external event by name.
        case event(String)
        /// Virtual time passes.
        case wait(Duration)

        /// `event name` or `wait 2 seconds`.
        public var description: String {
            switch self {
            case .event(let name): "event \(name)"
            case .wait(let duration): "wait \(duration)"
            }
        }
    }

    /// What a comparison found.
    public struct Result: Sendable, Hashable {
        /// How many times the active states were compared (after starting, after each step and
        /// after each timer that was due).
        public var comparisons: Int
        /// The first difference, or `nil` when the two agreed at every comparison.
        public var mismatch: String?
        /// The generated chart's active states at the end (their raw values, sorted).
        public var activeStates: [String]
        /// How many events of the steps only the interpreter was given, since the generated
        /// `Event` enum has no case of that name.
        public var eventsOutsideTheEnum: Int
        /// The step, if any, where the interpreter took an event the generated `Event` enum has
        /// no case for; the comparison stopped there.
        public var unrepresentable: String?
    }

    /// Compares `statechart`, generated from `document`'s chart, with the interpreter.
    ///
    /// - Parameters:
    ///   - statechart: The generated chart.
    ///   - document: The document's chart, as the interpreter runs it.
    ///   - steps: Events and waits, given to both.
    ///   - timerSteps: How many pending timers to run both on to, at most, after the steps.
    public static func compare<State: RawRepresentable & Hashable, Event: StatechartEvent & CaseIterable>(
        _ statechart: Statechart<State, Event, Void>, with document: SCXMLChart, steps: [Step], timerSteps: Int = 100
    ) -> Result where State.RawValue == String, Event.Kind == Event {
        var generated = CompiledSubject(machine: statechart.makeMachine())
        return compare(&generated, with: document, steps: steps, timerSteps: timerSteps)
    }

    /// Compares a chart built from a document that `statechart generate` wrote as Swift values (the
    /// `chart(dataModels:)` of a document that needs a data model) with the interpreter running the
    /// document's file: both run in an `SCXMLSession`.
    ///
    /// - Parameters:
    ///   - generated: The chart of the generated document.
    ///   - document: The document's chart, read from its file.
    ///   - steps: Events and waits, given to both.
    ///   - timerSteps: How many pending timers to run both on to, at most, after the steps.
    public static func compare(
        _ generated: SCXMLChart, with document: SCXMLChart, steps: [Step], timerSteps: Int = 100
    ) -> Result {
        var subject = SessionSubject(session: SCXMLSession(chart: generated))
        return compare(&subject, with: document, steps: steps, timerSteps: timerSteps)
    }

    static func compare<Generated: ComparedMachine>(
        _ generated: inout Generated, with document: SCXMLChart, steps: [Step], timerSteps: Int
    ) -> Result {
        var interpreter = SessionSubject(session: SCXMLSession(chart: document))
        var comparisons = 0
        var outside = 0
        func result(_ mismatch: String?, unrepresentable: String? = nil) -> Result {
            Result(
                comparisons: comparisons, mismatch: mismatch, activeStates: generated.activeStates.sorted(),
                eventsOutsideTheEnum: outside, unrepresentable: unrepresentable)
        }
        func run(
            _ what: String, _ generatedCall: (inout Generated) throws -> Void,
            _ interpreterCall: (inout SessionSubject) throws -> Void
        ) -> String? {
            var generatedError: (any Error)?
            var interpreterError: (any Error)?
            do { try generatedCall(&generated) } catch { generatedError = error }
            do { try interpreterCall(&interpreter) } catch { interpreterError = error }
            comparisons += 1
            if (generatedError == nil) != (interpreterError == nil) {
                return
                    "after \(what): the generated chart \(generatedError.map { "threw \($0)" } ?? "went on"), the interpreter \(interpreterError.map { "threw \($0)" } ?? "went on")"
            }
            guard generated.activeStates == interpreter.activeStates else {
                return
                    "after \(what): the generated chart is in \(generated.activeStates.sorted()), the interpreter in \(interpreter.activeStates.sorted())"
            }
            guard generated.status == interpreter.status else {
                return
                    "after \(what): the generated chart is \(generated.status), the interpreter \(interpreter.status)"
            }
            return nil
        }
        if let mismatch = run("start", { try $0.start() }, { try $0.start() }) { return result(mismatch) }
        for (index, step) in steps.enumerated() {
            let what = "step \(index + 1) (\(step))"
            let mismatch: String?
            switch step {
            case .event(let name):
                guard generated.canReceive(name) else {
                    outside += 1
                    let before = interpreter.activeStates
                    mismatch = run(what, { _ in }, { _ = try $0.send(name) })
                    if mismatch != nil || interpreter.activeStates != before {
                        return result(
                            nil,
                            unrepresentable:
                                "\(what): the document takes the event '\(name)', which the generated Event enum has no case for"
                        )
                    }
                    continue
                }
                mismatch = run(what, { _ = try $0.send(name) }, { _ = try $0.send(name) })
            case .wait(let duration):
                mismatch = run(what, { try $0.advance(by: duration) }, { try $0.advance(by: duration) })
            }
            if let mismatch { return result(mismatch) }
        }
        for _ in 0..<timerSteps {
            let deadlines = [generated.nextDeadline, interpreter.nextDeadline].compactMap { $0 }
            guard let next = deadlines.min(), generated.status == .running, interpreter.status == .running else {
                break
            }
            let mismatch = run("the timer due at \(next)", { try $0.advance(to: next) }, { try $0.advance(to: next) })
            if let mismatch { return result(mismatch) }
        }
        return result(nil)
    }
}

/// What the comparison drives: a generated chart's machine, or a session.
protocol ComparedMachine {
    var activeStates: Set<String> { get }
    var status: MachineStatus { get }
    var nextDeadline: Duration? { get }
    /// Whether an event of this name can be sent.
    func canReceive(_ name: String) -> Bool
    mutating func start() throws
    mutating func send(_ name: String) throws
    mutating func advance(by duration: Duration) throws
    mutating func advance(to instant: Duration) throws
}

/// A compiled generated chart's machine, sent the `Event` case of each name.
struct CompiledSubject<State: RawRepresentable & Hashable, Event: StatechartEvent & CaseIterable & Hashable>:
    ComparedMachine
where State.RawValue == String, Event.Kind == Event {
    var machine: StateMachine<State, Event, Void>

    var activeStates: Set<String> { Set(machine.activeStates.map(\.rawValue)) }
    var status: MachineStatus { machine.status }
    var nextDeadline: Duration? { machine.nextDeadline }
    func event(_ name: String) -> Event? { Event.allCases.first { Event.name(of: $0) == name } }
    func canReceive(_ name: String) -> Bool { event(name) != nil }
    mutating func start() throws {
        defer { _ = machine.takeEffects() }
        try machine.start()
    }
    mutating func send(_ name: String) throws {
        defer { _ = machine.takeEffects() }
        guard let event = event(name) else { return }
        try machine.send(event)
    }
    mutating func advance(by duration: Duration) throws {
        defer { _ = machine.takeEffects() }
        try machine.advance(by: duration)
    }
    mutating func advance(to instant: Duration) throws {
        defer { _ = machine.takeEffects() }
        try machine.advance(to: instant)
    }
}

/// A session of a document.
struct SessionSubject: ComparedMachine {
    var session: SCXMLSession

    var activeStates: Set<String> { Set(session.activeStates) }
    var status: MachineStatus { session.status }
    var nextDeadline: Duration? { session.nextDeadline }
    func canReceive(_ name: String) -> Bool { true }
    mutating func start() throws { _ = try session.start() }
    mutating func send(_ name: String) throws { _ = try session.send(SCXMLEvent(name)) }
    mutating func advance(by duration: Duration) throws { _ = try session.advance(by: duration) }
    mutating func advance(to instant: Duration) throws { _ = try session.advance(to: instant) }
}
