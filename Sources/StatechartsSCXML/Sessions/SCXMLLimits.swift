import Statecharts

/// What a document may take when it runs: time, steps, memory, depth and timers.
///
/// Documents are untrusted input. A session keeps every document it runs, and every document
/// those invoke, within one set of limits. The defaults let every document of the W3C and SCION
/// suites run and stop a hostile one within about a second and a few hundred megabytes.
///
/// Budgets of a *cascade* (``scriptTime``, ``microsteps``) cover everything one call of the
/// session causes at one instant: the event, the macrosteps it causes, the events sessions send
/// each other in response, and their scripts. Going past any limit ends the session that went past
/// it with `MachineError.limitExceeded` (a `LimitViolation` names the limit, the element and its
/// file:line:column), except where SCXML wants an event: the limits of one element (`<foreach>`
/// items, pending timers, invocation depth and sessions) raise `error.execution` in the session
/// instead, and the microstep limit ends the call, not the session. The host process and other
/// sessions go on.
///
/// ```swift
/// var limits = SCXMLLimits()
/// limits.scriptTime = .seconds(10)  // a trusted document with heavy scripts
/// limits.javaScriptHeap = 2 << 30
/// var session = SCXMLSession(chart: chart, options: .init(limits: limits))
/// ```
public struct SCXMLLimits: Sendable, Hashable, Codable {
    /// The time all scripts and expressions of one cascade may run, in every session it reaches;
    /// `nil` for no limit. A script still running when the budget is spent is stopped, and the
    /// session ends with the violation. 1 second by default.
    public var scriptTime: Duration?
    /// How many microsteps one event may take in a session, and how many deliveries and timer
    /// firings between sessions one cascade may take; 100,000 by default. Going past it ends the
    /// call with `MachineError.microstepLimitExceeded`; the session drops the rest of that cascade
    /// and goes on, as a machine does (its state is that of a complete microstep).
    public var microsteps: Int
    /// How deep invocations may nest: a document that invokes one that invokes one ... 10 by default.
    /// An `<invoke>` beyond it raises `error.execution` in the invoking session.
    public var invocationDepth: Int
    /// How many sessions may run at once, the top one included; 100 by default. An `<invoke>`
    /// beyond it raises `error.execution` in the invoking session.
    public var sessions: Int
    /// The bytes the JavaScript heap of a session may hold; `nil` for no limit. A script that
    /// grows it past this is stopped and the session ends. 512 MiB by default.
    public var javaScriptHeap: Int?
    /// How many items a `<foreach>` array may have; 100,000 by default. A larger one raises
    /// `error.execution`, as an array that is not one does, and runs nothing.
    public var foreachItems: Int
    /// How many events sent with a delay may wait at once: in each session (its own delayed
    /// events), and between sessions; 10,000 by default. A `<send>` to itself beyond it raises
    /// `error.execution`, one to another session `error.communication`; neither is sent.
    public var pendingTimers: Int
    /// The bytes a document, or any file it names (`src` of `<data>`, `<script>`, `<invoke>`),
    /// may have; 16 MiB by default. Larger ones are refused when read.
    public var documentSize: Int
    /// Whether scripts may use WebAssembly; `false` by default. JavaScriptCore's watchdog does not
    /// stop a WebAssembly loop on every platform: allow it for trusted documents only.
    public var allowsWebAssembly: Bool

    /// The default limits, changed by the arguments given.
    public init(
        scriptTime: Duration? = .seconds(1), microsteps: Int = 100_000, invocationDepth: Int = 10,
        sessions: Int = 100, javaScriptHeap: Int? = 512 << 20, foreachItems: Int = 100_000,
        pendingTimers: Int = 10_000, documentSize: Int = 16 << 20, allowsWebAssembly: Bool = false
    ) {
        self.scriptTime = scriptTime
        self.microsteps = microsteps
        self.invocationDepth = invocationDepth
        self.sessions = sessions
        self.javaScriptHeap = javaScriptHeap
        self.foreachItems = foreachItems
        self.pendingTimers = pendingTimers
        self.documentSize = documentSize
        self.allowsWebAssembly = allowsWebAssembly
    }

    /// The defaults.
    public static var `default`: SCXMLLimits { SCXMLLimits() }

    /// A violation of the limit with this name, with the limit's value: what a data model records
    /// in the current ``SCXMLCascade`` when a document goes past it.
    public func violation(
        _ limit: Name, element: String? = nil, location: SourcePosition? = nil, session: String? = nil,
        detail: String
    ) -> LimitViolation {
        LimitViolation(
            limit: limit.rawValue, allowed: allowed(limit), element: element, location: location, session: session,
            detail: detail)
    }

    /// The names of the limits, as `LimitViolation/limit` gives them.
    public enum Name: String, Sendable, CaseIterable {
        /// ``SCXMLLimits/scriptTime``.
        case scriptTime
        /// ``SCXMLLimits/microsteps``.
        case microsteps
        /// ``SCXMLLimits/invocationDepth``.
        case invocationDepth
        /// ``SCXMLLimits/sessions``.
        case sessions
        /// ``SCXMLLimits/javaScriptHeap``.
        case javaScriptHeap
        /// ``SCXMLLimits/foreachItems``.
        case foreachItems
        /// ``SCXMLLimits/pendingTimers``.
        case pendingTimers
        /// ``SCXMLLimits/documentSize``.
        case documentSize
    }

    /// A limit's value, readable.
    public func allowed(_ limit: Name) -> String {
        switch limit {
        case .scriptTime: scriptTime.map { "\($0)" } ?? "none"
        case .microsteps: "\(microsteps) microsteps"
        case .invocationDepth: "\(invocationDepth) levels"
        case .sessions: "\(sessions) sessions"
        case .javaScriptHeap: javaScriptHeap.map { "\($0) bytes" } ?? "none"
        case .foreachItems: "\(foreachItems) items"
        case .pendingTimers: "\(pendingTimers) pending delayed events"
        case .documentSize: "\(documentSize) bytes"
        }
    }
}
