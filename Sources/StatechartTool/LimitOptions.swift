#if Tools
import ArgumentParser
import Foundation
import StatechartsSCXML

/// The limits a command keeps a document within (see `SCXMLLimits`), as options: the defaults
/// bound hostile documents; loosen them for documents you trust.
public struct LimitOptions: ParsableArguments, Sendable {
    /// Script time per cascade.
    @Option(help: "Script time each event's whole cascade may take, in every session (1s; `none` for no limit).")
    public var scriptTime: String?

    /// Microsteps per cascade.
    @Option(help: "Microsteps one cascade may take across sessions (100000).")
    public var microstepLimit: Int?

    /// Invocation depth.
    @Option(help: "How deep invocations may nest (10).")
    public var invocationDepth: Int?

    /// Live sessions.
    @Option(help: "How many sessions may run at once (100).")
    public var sessions: Int?

    /// JavaScript heap, in MiB.
    @Option(help: "The JavaScript heap of a session, in MiB (512).")
    public var heap: Int?

    /// `<foreach>` items.
    @Option(help: "Items a <foreach> array may have (100000).")
    public var foreachItems: Int?

    /// Pending delayed events.
    @Option(help: "Delayed events that may wait at once (10000).")
    public var pendingTimers: Int?

    /// Document size, in MiB.
    @Option(help: "The size of a document or a file it names, in MiB (16).")
    public var documentSize: Int?

    /// WebAssembly.
    @Flag(help: "Let scripts use WebAssembly (trusted documents only: its loops are not always stopped).")
    public var allowWebassembly = false

    /// Options with the defaults.
    public init() {}

    /// Bytes in `count` MiB, at most `Int.max`.
    static func mebibytes(_ count: Int) -> Int {
        let (bytes, overflow) = count.multipliedReportingOverflow(by: 1 << 20)
        return overflow ? .max : bytes
    }

    /// The limits the options give.
    ///
    /// - Throws: ``CommandError`` for a duration that cannot be read or a number below 1.
    public func limits() throws(CommandError) -> SCXMLLimits {
        var limits = SCXMLLimits()
        if let scriptTime {
            if scriptTime == "none" {
                limits.scriptTime = nil
            } else if let duration = Step.duration(scriptTime), duration > .zero {
                limits.scriptTime = duration
            } else {
                throw CommandError("--script-time '\(scriptTime)' is not a duration such as 500ms, 2s or none")
            }
        }
        func positive(_ value: Int?, _ name: String) throws(CommandError) -> Int? {
            guard let value else { return nil }
            guard value >= 1 else { throw CommandError("--\(name) must be at least 1") }
            return value
        }
        if let value = try positive(microstepLimit, "microstep-limit") { limits.microsteps = value }
        if let value = try positive(invocationDepth, "invocation-depth") { limits.invocationDepth = value }
        if let value = try positive(sessions, "sessions") { limits.sessions = value }
        if let value = try positive(heap, "heap") { limits.javaScriptHeap = Self.mebibytes(value) }
        if let value = try positive(foreachItems, "foreach-items") { limits.foreachItems = value }
        if let value = try positive(pendingTimers, "pending-timers") { limits.pendingTimers = value }
        if let value = try positive(documentSize, "document-size") { limits.documentSize = Self.mebibytes(value) }
        limits.allowsWebAssembly = allowWebassembly
        return limits
    }
}
#endif
