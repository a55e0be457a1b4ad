import Foundation
import Statecharts
import StatechartsECMAScript
import StatechartsSCXML

/// The ECMAScript counter (Benchmarks/Documents/ecmascript-counter.scxml) interpreted in a
/// session on ``ECMAScriptDataModel``: every `tick` runs a `cond` and an `<assign>`. Qt SCXML runs
/// the same document on its ECMAScript data model in the same run (Scripts/qt-benchmark.sh).
public struct ECMAScriptCounter: CustomStringConvertible {
    var session: SCXMLSession
    let tick = SCXMLEvent("tick")

    /// The counter's document.
    public static var document: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Documents/ecmascript-counter.scxml")
    }

    /// A started session. Scripts keep the watchdog of the default limits, with an hour of script
    /// time per cascade instead of a second: under valgrind, whose threads take turns,
    /// JavaScriptCore's compiler threads can hold a single event past a second of wall-clock time.
    public init() throws {
        let chart = try SCXMLChart.load(contentsOf: Self.document, dataModels: ECMAScriptDataModel.withBuiltIns)
        session = SCXMLSession(chart: chart, options: .init(limits: SCXMLLimits(scriptTime: .seconds(3600))))
        _ = try session.start()
    }

    /// Sends one `tick`.
    @inline(__always)
    public mutating func send() throws { _ = try session.send(tick) }

    /// The data model's `count`: after N ticks, N modulo 100.
    public func count() throws -> Int {
        var model = session.machine.context.model
        let value = try model.load("count", at: SourcePosition(file: "benchmark", line: 1, column: 1))
        guard case .number(let number) = value, let count = Int(exactly: number) else {
            throw CounterError(message: "the counter holds \(value), not a whole number")
        }
        return count
    }

    /// Throws unless `count()` is what `ticks` events leave.
    public func check(afterTicks ticks: Int) throws {
        let count = try count()
        guard count == ticks % 100 else {
            throw CounterError(message: "the counter holds \(count) after \(ticks) ticks, not \(ticks % 100)")
        }
    }

    /// The active states.
    public var description: String { session.description }
}

/// The counter as hand-written Swift: the same guard and assignment on an `Int`.
public struct SwitchCounter {
    /// The count.
    public private(set) var count = 0

    /// Creates the counter at 0.
    public init() {}

    /// One `tick`.
    @inline(__always)
    public mutating func send() {
        if count < 99 { count += 1 } else { count = 0 }
    }
}

/// A counter that does not hold what its ticks leave.
public struct CounterError: Error, CustomStringConvertible {
    /// What the counter holds.
    public var message: String
    /// The message.
    public var description: String { message }
}
