import Foundation
import FuzzDriver
import Statecharts
import StatechartsSCXML
import StatechartsTesting

/// One input: any bytes, saved as a document and loaded with every data model of the build
/// (ECMAScript on JavaScriptCore included), then driven under tight limits: started, sent events,
/// and moved on in time from one timer deadline to the next. Whatever the document does, each call
/// must end, in a result or in a typed error; a session ended by a limit must say which limit; a
/// session that still runs must archive and restore to the same configuration. Nothing may crash,
/// trap, hang or take more memory than libFuzzer's limit.
///
/// The drive is written in the document, in a comment: `<!--drive: go, wait 2s, stop-->` (steps as
/// `statechart run --events` takes them, at most 16). Without one, the driver sends each event the
/// chart knows, up to eight, with a second between them, and ends with an hour's wait.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    // Saved so that `src` attributes naming the document itself (or files beside it) resolve.
    guard (try? data.write(to: SessionFuzzing.document)) != nil else { return 0 }
    guard
        let chart = try? SCXMLChart.load(
            data, file: SessionFuzzing.document.path, dataModels: BuiltDataModels.all,
            maximumSize: SessionFuzzing.limits.documentSize)
    else { return 0 }
    let drive = SessionFuzzing.drive(in: data, eventNames: chart.statechart.eventNames)
    var session = SCXMLSession(
        chart: chart, options: .init(sessionID: "fuzz", limits: SessionFuzzing.limits, dataModels: BuiltDataModels.all))
    defer { session.close() }
    // The drive stops at the first error, as `statechart run` does: each call is bounded by the
    // limits, and a document that loops at every instant would otherwise loop at each of them.
    var going = SessionFuzzing.expectTyped { () throws(MachineError<String, SCXMLEvent>) in _ = try session.start() }
    var instants = 0
    for step in drive where going && session.status == .running {
        switch step {
        case .event(let name):
            going = SessionFuzzing.expectTyped { () throws(MachineError<String, SCXMLEvent>) in
                _ = try session.send(SCXMLEvent(name))
            }
        case .wait(let duration):
            // One instant at a time, as `statechart run` moves time: never all the timers of an hour at once.
            let target = session.now + duration
            while going, let deadline = session.nextDeadline, deadline <= target, session.status == .running,
                instants < SessionFuzzing.instants
            {
                instants += 1
                going = SessionFuzzing.expectTyped { () throws(MachineError<String, SCXMLEvent>) in
                    _ = try session.advance(to: deadline)
                }
            }
            if !going || instants >= SessionFuzzing.instants { break }
            going = SessionFuzzing.expectTyped { () throws(MachineError<String, SCXMLEvent>) in
                _ = try session.advance(to: target)
            }
        }
    }
    if let ended = session.endedBy, case .limitExceeded(let violation) = ended {
        precondition(!violation.limit.isEmpty && !violation.detail.isEmpty, "a limit violation that names nothing")
    }
    if session.status == .running, session.endedBy == nil, let archive = try? session.archive() {
        let configuration = session.configuration
        if var restored = try? SCXMLSession(
            chart: chart, restoring: archive,
            options: .init(limits: SessionFuzzing.limits, dataModels: BuiltDataModels.all))
        {
            precondition(
                restored.configuration == configuration,
                "a restored session is in \(restored.configuration), its archive was taken in \(configuration)")
            restored.close()
        }
    }
    return 0
}

/// What the session fuzzer drives documents with.
enum SessionFuzzing {
    /// Tighter than the defaults, so that each input ends quickly; the same code paths.
    static let limits = SCXMLLimits(
        scriptTime: .milliseconds(250), microsteps: 10_000, invocationDepth: 4, sessions: 16,
        javaScriptHeap: 256 << 20, foreachItems: 10_000, pendingTimers: 1_000, documentSize: 1 << 20)

    /// The most instants at which timers fire, over one input's waits.
    static let instants = 2_000

    /// Where each input is saved before it is loaded.
    static let document: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "statecharts-session-fuzzer-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("document.scxml")
    }()

    /// A step of a drive.
    enum Step {
        case event(String)
        case wait(Duration)
    }

    /// The drive written in the document's last `<!--drive: ...-->` comment, or the default one.
    static func drive(in data: Data, eventNames: [String]) -> [Step] {
        let text = String(decoding: data, as: UTF8.self)
        guard let start = text.range(of: "<!--drive:", options: .backwards),
            let end = text.range(of: "-->", range: start.upperBound..<text.endIndex)
        else {
            return eventNames.prefix(8).flatMap { [Step.event($0), .wait(.seconds(1))] } + [.wait(.seconds(3600))]
        }
        return text[start.upperBound..<end.lowerBound].split(whereSeparator: { $0 == "," || $0 == "\n" }).prefix(16)
            .compactMap { item in
                let step = item.trimmingCharacters(in: .whitespaces)
                if step.hasPrefix("wait ") { return duration(step.dropFirst(5)).map(Step.wait) }
                return step.isEmpty ? nil : .event(step)
            }
    }

    /// `250ms`, `2s`, `5m`, `1h`.
    static func duration(_ text: Substring) -> Duration? {
        let units: [(suffix: String, milliseconds: Int64)] = [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000)]
        for unit in units where text.hasSuffix(unit.suffix) {
            guard let value = Int64(text.dropLast(unit.suffix.count).trimmingCharacters(in: .whitespaces)),
                (0...86_400_000).contains(value)
            else { return nil }
            return .milliseconds(value * unit.milliseconds)
        }
        return nil
    }

    /// Runs one call of the session, which may throw only its typed errors, each with a message;
    /// whether it returned.
    static func expectTyped(_ call: () throws(MachineError<String, SCXMLEvent>) -> Void) -> Bool {
        do {
            try call()
            return true
        } catch {
            precondition(!error.description.isEmpty, "an error without a message")
            return false
        }
    }
}

/// The entry point SwiftPM links an executable through; it hands over to libFuzzer's driver.
@_cdecl("SessionFuzzer_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzz)
}
