// Compiled with the trait ECMAScript only: without it, this module is empty and needs no JavaScriptCore.
#if ECMAScript
import CJavaScriptCore
import Statecharts
import StatechartsSCXML

#if os(Linux)
import Glibc
#endif

/// One JavaScriptCore virtual machine with one global object: the variables of one session.
///
/// The context is a sandbox. Its global object has ECMAScript's built-ins only (no file, network
/// or process access: JavaScriptCore's C API adds none, and modules cannot be loaded). What a
/// document could use to escape its limits is taken away: `eval` and the Function constructors
/// (so that the only code that runs is the text the data model evaluates), WebAssembly (unless
/// the limits allow it), promises and asynchronous functions (whose jobs JavaScriptCore runs
/// after a script returns, out of the watchdog's reach). Every evaluation draws on the script
/// time of the current cascade (``SCXMLCascade``) and is stopped when it is spent or when the heap
/// grows past its limit.
///
/// Not thread-safe on its own: one machine uses it at a time, as a machine's context is used.
final class JavaScriptContext: SCXMLCascadeParticipant, @unchecked Sendable {
    let group: JSContextGroupRef
    let context: JSGlobalContextRef
    /// The session whose variables these are.
    let session: SCXMLSessionInfo
    /// The session's limits (`session.limits`).
    let limits: SCXMLLimits
    /// When the evaluation running now must stop, and the cascade it draws on.
    private var deadline: ContinuousClock.Instant?
    private var cascade: SCXMLCascade?
    /// Why the watchdog stopped the last evaluation it stopped.
    private var stopReason: LimitViolation?
    private var evaluationLocation: SourcePosition?
    private var evaluationsSinceHeapCheck = 0
    /// Which states are active, while an evaluation that may call `In()` runs.
    private var activeStateTest: ((String) -> Bool)?
    /// Functions made once per context, protected from the collector.
    private var protectedValues: [JSValueRef] = []
    /// Assignment functions by location, made once each.
    private var assigners: [String: JSObjectRef] = [:]
    /// Assignments of a compiled expression to a location, one function each (``assign(_:to:at:)``).
    private var assignments: [AssignmentKey: JSObjectRef] = [:]
    private var assignmentCombinator: JSObjectRef?
    /// Expressions compiled to functions once, by their text (see ``compiledExpression(_:)``);
    /// `nil` for one that is evaluated as a script each time.
    private var compiledExpressions: [String: JSObjectRef?] = [:]
    /// How many evaluations are running: more than one while a native callback (the `_event`
    /// getter) calls back into JavaScript. Only the outermost arms and disarms the watchdog.
    private var evaluationDepth = 0
    /// The cascade the watchdog stays armed for, from one evaluation to the next, until it ends.
    private var armedCascade: SCXMLCascade?
    /// The time limit set in JavaScriptCore, in seconds; `nil` when none is set.
    private var armedLimit: Double?
    /// Until when an evaluation of the armed cascade needs no change to the watchdog: a period
    /// before `deadline`, while the limit set is a whole period; `nil` otherwise.
    private var quietUntil: ContinuousClock.Instant?
    private var inFunctionClass: JSClassRef?
    /// The class of `_event`'s native getter (JavaScriptContext+Event.swift).
    var eventGetterClass: JSClassRef?
    /// The event `_event` is bound to, and its object once a script has read it (protected).
    var boundEvent: SCXMLEvent?
    var boundEventObject: JSObjectRef?
    /// The DOM's builder and serializer, made the first time XML content is used.
    private var domHelperObject: JSObjectRef?
    /// The archive's encoder and decoder, made the first time the model is archived or restored.
    private var archiveHelperObject: JSObjectRef?
    /// Why the last helper could not be made (``makeFunction(_:)``): the cascade's script time or
    /// the heap ran out while it was evaluated, most often.
    private(set) var helperFailure: SCXMLEvaluationError?
    /// `Object.freeze`, kept from the context's start.
    private var freezer: JSObjectRef?

    /// The message JavaScriptCore gives a script it stopped.
    static let terminationMessage = "JavaScript execution terminated."

    /// Whether this build stops scripts with JavaScriptCore's watchdog and turns `eval` off: always
    /// on Linux, and on Apple platforms with the trait JavaScriptCoreSPI (those functions are not
    /// public API there).
    static var hasWatchdog: Bool {
        #if canImport(Darwin) && !JavaScriptCoreSPI
        false
        #else
        true
        #endif
    }

    /// Stops scripts by polling, not by signals: once per process, before the first virtual
    /// machine, unless the environment says otherwise. JavaScriptCore's signal-based traps send a
    /// signal from a thread of their own to the thread running a script, which here is whichever
    /// thread of the cooperative pool an actor's task resumes on; that thread of theirs aborted
    /// (`VMTraps::requestThreadStopIfNeeded`) once in 906,618 runs of the archive fuzzer, and in the
    /// inspector now and then. Polling checks at loop back-edges stop a script as surely; the thread
    /// sanitizer's runs (Scripts/tsan.sh) always used them.
    private static let trapsConfigured: Void = {
        #if !canImport(Darwin)
        setenv("JSC_usePollingTraps", "true", 0)
        #endif
    }()

    init(session: SCXMLSessionInfo) {
        _ = Self.trapsConfigured
        group = JSContextGroupCreate()
        context = JSGlobalContextCreateInGroup(group, nil)
        self.session = session
        self.limits = session.limits
        #if !canImport(Darwin) || JavaScriptCoreSPI
        let message = Self.makeString(
            "eval and the Function constructors are not available to documents: code comes from the document's text only"
        )
        JSGlobalContextSetEvalEnabled(context, false, message)
        JSStringRelease(message)
        #endif
        removeEscapes()
        _ = freezeFunction()
        installInFunction()
        installEventGetter()
    }

    deinit {
        clearWatchdog()
        for value in protectedValues { JSValueUnprotect(context, value) }
        for function in assigners.values { JSValueUnprotect(context, function) }
        for function in assignments.values { JSValueUnprotect(context, function) }
        for case let function? in compiledExpressions.values { JSValueUnprotect(context, function) }
        if let boundEventObject { JSValueUnprotect(context, boundEventObject) }
        if let inFunctionClass { JSClassRelease(inFunctionClass) }
        if let eventGetterClass { JSClassRelease(eventGetterClass) }
        JSGlobalContextRelease(context)
        JSContextGroupRelease(group)
    }

    var global: JSObjectRef { JSContextGetGlobalObject(context) }

    // MARK: - Evaluating

    /// Runs `body` with `In()` answering from `isActive`.
    func withActiveStates<Result>(_ isActive: (String) -> Bool, _ body: () throws -> Result) rethrows -> Result {
        try withoutActuallyEscaping(isActive) { escapable in
            let previous = activeStateTest
            activeStateTest = escapable
            defer { activeStateTest = previous }
            return try body()
        }
    }

    /// Evaluates a document's script or expression at global scope, within the limits.
    func evaluate(_ source: String, at location: SourcePosition) throws(SCXMLEvaluationError) -> JSValueRef {
        if let construct = Self.asynchronousConstruct(in: source) {
            throw SCXMLEvaluationError(
                "asynchronous JavaScript is not available to documents ('\(construct.word)' at line \(construct.line) of the script): its jobs would run after the script, out of the time limit",
                at: location)
        }
        return try evaluateTrusted(source, at: location)
    }

    /// Evaluates a script at global scope under the watchdog: the library's own scripts, and the
    /// document's once checked.
    func evaluateTrusted(_ source: String, at location: SourcePosition) throws(SCXMLEvaluationError) -> JSValueRef {
        try armWatchdog(at: location)
        let script = Self.makeString(source)
        defer { JSStringRelease(script) }
        let url = Self.makeString(location.file)
        defer { JSStringRelease(url) }
        var exception: JSValueRef?
        let result = JSEvaluateScript(context, script, nil, url, Int32(clamping: location.line), &exception)
        disarmWatchdog()
        if let exception { throw error(from: exception, at: location) }
        try checkHeapNow(at: location)
        guard let result else { throw SCXMLEvaluationError("the script gave no value", at: location) }
        return result
    }

    /// Evaluates an expression: its text in parentheses, so that an object literal is an object
    /// and a statement is an error.
    ///
    /// Semicolons and white space at the end are dropped: documents write `expr="f();"`. The
    /// first evaluation compiles the expression to a function (``compiledExpression(_:)``), which
    /// later ones call: JavaScriptCore then parses it once, and its code is optimised as it runs.
    func evaluateExpression(_ expression: SCXMLExpression) throws(SCXMLEvaluationError) -> JSValueRef {
        if let compiled = function(of: expression) {
            let result = try call(compiled, count: 0, arguments: nil, at: expression.location)
            try checkHeapNow(at: expression.location)
            return result
        }
        return try evaluate("(" + Self.expressionText(expression.text) + "\n)", at: expression.location)
    }

    /// An expression's text without the semicolons and white space at its end.
    static func expressionText(_ text: String) -> Substring {
        var text = Substring(text)
        while let last = text.last, last == ";" || last.isWhitespace { text.removeLast() }
        return text
    }

    /// The expression's compiled function: the cached one, or compiled now; `nil` for one that is
    /// evaluated as a script.
    func function(of expression: SCXMLExpression) -> JSObjectRef? {
        if let cached = compiledExpressions[expression.text] { return cached }
        return compiledExpression(expression)
    }

    /// The most expressions compiled per context; others are evaluated as scripts each time.
    static let compiledExpressionLimit = 4_096

    /// The words that keep an expression from being compiled to a function: in a function,
    /// `arguments` is the function's own, and a direct `eval` (where eval is on) declares its
    /// variables in the function.
    static let functionScopeWords = ["arguments", "eval"]

    /// Compiles an expression to `function () { return (TEXT\n); }`, evaluated at global scope,
    /// and caches it; `nil` (cached too) when it must be evaluated as a script each time.
    ///
    /// Called like that, the function gives what evaluating `(TEXT\n)` as a script gives: the
    /// same global scope and `this`, the same errors when it runs. An expression is compiled
    /// only when that holds:
    /// - `[TEXT\n]` must parse as a script. So the text closes no parenthesis or brace it did
    ///   not open, and cannot end the function's `return (` and add statements of its own;
    ///   `new.target`, which only a function allows, fails there too.
    /// - It has no `arguments` or `eval` (``functionScopeWords``), no asynchronous construct
    ///   (which ``evaluate(_:at:)`` refuses with its own message), and no `\` (an escape could
    ///   spell one of those words).
    /// - The wrapper itself must parse.
    /// Whatever is not compiled, a bad expression included, is evaluated as before and fails as
    /// before. Compiling runs none of the document's code.
    func compiledExpression(_ expression: SCXMLExpression) -> JSObjectRef? {
        guard compiledExpressions.count < Self.compiledExpressionLimit else { return nil }
        let text = Self.expressionText(expression.text)
        guard !text.utf8.contains(UInt8(ascii: "\\")),
            Self.firstWord(of: Self.refusedWords + Self.functionScopeWords, in: String(text)) == nil,
            checkSyntax("[" + text + "\n]"), case let wrapper = "(function () { return (" + text + "\n); })",
            checkSyntax(wrapper)
        else {
            compiledExpressions[expression.text] = .some(nil)
            return nil
        }
        // A stopped cascade or spent script time refuses the evaluation: nothing is cached, and
        // the expression's own evaluation reports it.
        guard let value = try? evaluateTrusted(wrapper, at: expression.location) else { return nil }
        guard let function = JSValueToObject(context, value, nil), JSObjectIsFunction(context, function) else {
            compiledExpressions[expression.text] = .some(nil)
            return nil
        }
        JSValueProtect(context, function)
        compiledExpressions[expression.text] = function
        return function
    }

    /// Whether `source` parses as a script; nothing runs.
    func checkSyntax(_ source: String) -> Bool {
        let script = Self.makeString(source)
        defer { JSStringRelease(script) }
        return JSCheckScriptSyntax(context, script, nil, 1, nil)
    }

    /// Calls `function` with `arguments`.
    func call(
        _ function: JSObjectRef, _ arguments: [JSValueRef?], at location: SourcePosition
    ) throws(SCXMLEvaluationError) -> JSValueRef {
        try arguments.withUnsafeBufferPointer { buffer throws(SCXMLEvaluationError) in
            try call(function, count: buffer.count, arguments: buffer.baseAddress, at: location)
        }
    }

    /// Calls `function` with one argument, which needs no array.
    func call(
        _ function: JSObjectRef, with argument: JSValueRef?, at location: SourcePosition
    ) throws(SCXMLEvaluationError) -> JSValueRef {
        var argument = argument
        return try call(function, count: 1, arguments: &argument, at: location)
    }

    /// Calls `function` with the `count` arguments at `arguments`, under the watchdog.
    func call(
        _ function: JSObjectRef, count: Int, arguments: UnsafePointer<JSValueRef?>?, at location: SourcePosition
    ) throws(SCXMLEvaluationError) -> JSValueRef {
        try armWatchdog(at: location)
        var exception: JSValueRef?
        let result = JSObjectCallAsFunction(context, function, nil, count, arguments, &exception)
        disarmWatchdog()
        if let exception { throw error(from: exception, at: location) }
        return result ?? JSValueMakeUndefined(context)
    }

    /// The evaluation error for a thrown value, with a sentence for a script that was stopped.
    func error(from exception: JSValueRef, at location: SourcePosition) -> SCXMLEvaluationError {
        let message = string(exception)
        if message.contains(Self.terminationMessage) {
            let violation =
                stopReason
                ?? activeLimits.violation(
                    .scriptTime, location: location, detail: "the script ran past the cascade's script time")
            stopReason = nil
            cascade?.record(violation)
            var error = SCXMLEvaluationError("the script was stopped: \(violation)", at: location)
            error.stopsCascade = cascade != nil
            return error
        }
        return SCXMLEvaluationError(message, at: location)
    }

    // MARK: - Limits

    /// The limits of the running session (a restored session has those of its options), else the
    /// context's own.
    private var activeLimits: SCXMLLimits { cascade?.limits ?? limits }

    /// Sets the watchdog for an evaluation that starts now: the cascade's deadline (or, outside a
    /// session, the script time of this evaluation alone). Throws, running nothing, when the
    /// cascade's time is already spent or a session of the cascade went past a limit.
    func armWatchdog(at location: SourcePosition) throws(SCXMLEvaluationError) {
        // A nested evaluation (a native callback calling JavaScript) runs under the outer one's.
        if evaluationDepth > 0 {
            evaluationDepth += 1
            return
        }
        let cascade = SCXMLCascade.current
        // The library's own calls (binding _event) are charged to the document's last evaluation.
        if location.file != "statecharts" || evaluationLocation == nil { evaluationLocation = location }
        let now = ContinuousClock.now
        // The usual case: another evaluation of the cascade the watchdog is armed for, with more
        // than a period left. Nothing changes but the depth.
        if let cascade, cascade === armedCascade, cascade === self.cascade, !cascade.isStopped,
            let quietUntil, now < quietUntil, cascade.scriptDeadline == deadline
        {
            evaluationDepth = 1
            return
        }
        self.cascade = cascade
        let location = evaluationLocation ?? location
        if cascade?.isStopped == true {
            // The session ends when the machine's step returns; until then nothing runs.
            var error = SCXMLEvaluationError("the script was not run: the cascade was stopped at a limit", at: location)
            error.stopsCascade = true
            throw error
        }
        deadline = cascade != nil ? cascade?.scriptDeadline : limits.scriptTime.map { now + $0 }
        guard Self.hasWatchdog else {
            evaluationDepth = 1
            return
        }
        if let deadline, deadline <= now {
            let violation = activeLimits.violation(
                .scriptTime, location: location, detail: "the cascade's script time was spent before this script")
            cascade?.record(violation)
            var error = SCXMLEvaluationError("the script was not run: \(violation)", at: location)
            error.stopsCascade = cascade != nil
            throw error
        }
        if let cascade, armedCascade !== cascade {
            armedCascade = cascade
            cascade.join(self)
        }
        setWatchdog(from: now)
        evaluationDepth = 1
    }

    /// The longest time limit set in JavaScriptCore, in seconds. JavaScriptCore starts the limit
    /// again each time a script is entered and asks ``watchdogCallback`` when it runs out; the
    /// callback stops the script only once the real deadline has passed, and otherwise lets it
    /// run another period. So one limit serves every evaluation of a cascade, and a script is
    /// stopped at most this long after its deadline.
    static let watchdogPeriod: Duration = .milliseconds(10)
    /// ``watchdogPeriod`` in seconds, as JavaScriptCore takes it.
    static let watchdogPeriodSeconds = seconds(watchdogPeriod)

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Arms the watchdog for the evaluation that starts now, so that it asks at the deadline at
    /// the latest; clears it when scripts have no time limit. JavaScriptCore is called only when
    /// the limit must change: at a cascade's first evaluation, or when less than a period is left.
    private func setWatchdog(from now: ContinuousClock.Instant) {
        #if !canImport(Darwin) || JavaScriptCoreSPI
        guard let deadline else {
            clearWatchdog()
            return
        }
        let remaining = deadline - now
        let limit: Double
        if remaining >= Self.watchdogPeriod {
            limit = Self.watchdogPeriodSeconds
        } else {
            limit = max(Self.seconds(remaining), 0.0001)
        }
        quietUntil = limit == Self.watchdogPeriodSeconds ? deadline - Self.watchdogPeriod : nil
        if armedLimit == limit { return }
        JSContextGroupSetExecutionTimeLimit(
            group, limit, Self.watchdogCallback, Unmanaged.passUnretained(self).toOpaque())
        armedLimit = limit
        #endif
    }

    /// Clears the watchdog when the cascade it was armed for ends.
    func cascadeEnded(_ cascade: SCXMLCascade) {
        guard armedCascade === cascade else { return }
        armedCascade = nil
        // The cascade held this context until now; neither keeps the other past the call.
        if self.cascade === cascade { self.cascade = nil }
        if evaluationDepth == 0 { clearWatchdog() }
    }

    /// Disarms the watchdog once an evaluation has returned, and before the context is destroyed: no
    /// timer is left pending in JavaScriptCore's own thread while no script runs. (Within a cascade
    /// it stays armed from one evaluation to the next, and is cleared when the cascade ends: the
    /// session's call runs on one thread, with the context alive.) A pending one fires
    /// into a virtual machine that may have moved to another thread (an actor's task resumes on any
    /// thread of the pool) or been destroyed, and holds a pointer to this context: JavaScriptCore's
    /// trap thread aborted once in 906,618 runs of the archive fuzzer (from no input in particular),
    /// and the inspector's occasional abort was in a JavaScriptCore thread too.
    private func disarmWatchdog() {
        evaluationDepth = max(evaluationDepth - 1, 0)
        if evaluationDepth == 0, armedCascade == nil { clearWatchdog() }
    }

    /// Clears the watchdog's time limit.
    private func clearWatchdog() {
        #if !canImport(Darwin) || JavaScriptCoreSPI
        quietUntil = nil
        guard armedLimit != nil else { return }
        armedLimit = nil
        JSContextGroupClearExecutionTimeLimit(group)
        #endif
    }

    #if !canImport(Darwin) || JavaScriptCoreSPI
    /// What JavaScriptCore calls when a script has run for the limit set (``watchdogPeriod``, or
    /// what was left): `true` stops the script with an uncatchable exception, once its deadline
    /// has passed; `false` lets it run another period.
    private static let watchdogCallback: JSShouldTerminateCallback = { _, owner in
        guard let owner else { return true }
        return Unmanaged<JavaScriptContext>.fromOpaque(owner).takeUnretainedValue().watchdogFired()
    }
    #endif

    /// Whether the running evaluation must stop now: its deadline has passed. Otherwise the
    /// watchdog is set again for what is left, at most a period: JavaScriptCore starts no new
    /// period by itself once its callback has declined to stop the script.
    private func watchdogFired() -> Bool {
        guard let deadline else { return false }
        let now = ContinuousClock.now
        guard deadline > now else {
            recordStop()
            return true
        }
        #if !canImport(Darwin) || JavaScriptCoreSPI
        armedLimit = nil
        setWatchdog(from: now)
        #endif
        return false
    }

    /// Records why the running evaluation is stopped.
    private func recordStop() {
        stopReason = activeLimits.violation(
            .scriptTime, location: evaluationLocation,
            detail: cascade == nil
                ? "the script ran past its time limit" : "the script ran past the cascade's script time")
    }

    /// The bytes the context's heap holds: its capacity and the memory outside it that its objects
    /// own (array storage, buffers).
    func heapBytes() -> Int {
        #if !canImport(Darwin) || JavaScriptCoreSPI
        guard let statistics = JSGetMemoryUsageStatistics(context) else { return 0 }
        func number(_ name: String) -> Double {
            let key = Self.makeString(name)
            defer { JSStringRelease(key) }
            return JSValueToNumber(context, JSObjectGetProperty(context, statistics, key, nil), nil)
        }
        let total = max(number("heapSize"), number("heapCapacity")) + number("extraMemorySize")
        return total.isFinite ? Int(clamping: Int64(min(total, 9e18))) : 0
        #else
        return 0
        #endif
    }

    /// The heap limit's violation, when the heap holds more than it allows.
    ///
    /// JavaScriptCore's statistics walk the whole heap, so on Linux the process's resident memory
    /// is read first: a heap cannot hold more than the process does.
    func heapViolation(at location: SourcePosition?) -> LimitViolation? {
        let limits = activeLimits
        guard let limit = limits.javaScriptHeap else { return nil }
        #if os(Linux)
        if let resident = Self.residentBytes(), resident <= limit { return nil }
        #endif
        let bytes = heapBytes()
        guard bytes > limit else { return nil }
        return limits.violation(.javaScriptHeap, location: location, detail: "the JavaScript heap holds \(bytes) bytes")
    }

    #if os(Linux)
    /// The process's resident memory, from `/proc/self/statm`; `nil` when it cannot be read.
    static func residentBytes() -> Int? {
        let file = open("/proc/self/statm", O_RDONLY)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        // "size resident shared ...", in pages.
        let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages.multipliedReportingOverflow(by: Int(sysconf(Int32(_SC_PAGESIZE)))).partialValue
    }
    #endif

    /// Looks at the heap after every 256th evaluation. (Within one evaluation the script time
    /// bounds how much it can grow: JavaScriptCore's watchdog fires once, at the deadline.)
    private func checkHeapNow(at location: SourcePosition) throws(SCXMLEvaluationError) {
        evaluationsSinceHeapCheck += 1
        guard evaluationsSinceHeapCheck >= 256 else { return }
        evaluationsSinceHeapCheck = 0
        if let violation = heapViolation(at: location) {
            cascade?.record(violation)
            var error = SCXMLEvaluationError("the script was stopped: \(violation)", at: location)
            error.stopsCascade = cascade != nil
            throw error
        }
    }

    /// Takes away what would let a document escape its limits: promises and the built-ins that
    /// return them, WebAssembly (unless allowed) and other realms.
    private func removeEscapes() {
        let location = SourcePosition(file: "statecharts", line: 1, column: 1)
        _ = try? evaluateTrusted(
            """
            (function (global, allowsWebAssembly) {
                var promise = global.Promise;
                if (promise) {
                    ["then", "catch", "finally"].forEach(function (name) { delete promise.prototype[name]; });
                }
                delete global.Promise;
                delete Array.fromAsync;
                if (typeof Atomics !== "undefined") { delete Atomics.waitAsync; }
                if (!allowsWebAssembly) { delete global.WebAssembly; }
                delete global.ShadowRealm;
                delete global.queueMicrotask;
            })(globalThis, \(limits.allowsWebAssembly))
            """, at: location)
    }

    /// The words that start asynchronous work, made once.
    static let refusedWords = ["async", "await", "import"]

    /// The first word of a script that would start asynchronous work (`async`, `await`, `import`),
    /// with its line; `nil` when there is none. Words in strings and comments count too: a
    /// document that needs one there writes it another way. Read byte by byte, with nothing
    /// allocated: every evaluation goes through it.
    static func asynchronousConstruct(in source: String) -> (word: String, line: Int)? {
        firstWord(of: refusedWords, in: source)
    }

    /// The first of `words` that appears in `source` as a word, with its line; `nil` when none
    /// does. Read byte by byte, with nothing allocated.
    static func firstWord(of words: [String], in source: String) -> (word: String, line: Int)? {
        var source = source
        return source.withUTF8 { bytes -> (word: String, line: Int)? in
            func isIdentifierByte(_ byte: UInt8) -> Bool {
                // Bytes of non-ASCII characters and `\` (escapes) count as identifier bytes, so
                // that `x\u0061sync` or `éawait` is one word, never `async` or `await`.
                byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "\\")
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            }
            var line = 1
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                guard isIdentifierByte(byte) else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    index += 1
                    continue
                }
                let start = index
                while index < bytes.count, isIdentifierByte(bytes[index]) { index += 1 }
                let word = UnsafeBufferPointer(rebasing: bytes[start..<index])
                for refused in words where word.elementsEqual(refused.utf8) {
                    return (refused, line)
                }
            }
            return nil
        }
    }

    // MARK: - Variables

    /// Sets a property of the global object.
    func setGlobal(_ name: String, _ value: JSValueRef, readOnly: Bool = false, hidden: Bool = false) {
        let key = Self.makeString(name)
        defer { JSStringRelease(key) }
        var attributes = JSPropertyAttributes(kJSPropertyAttributeNone)
        if readOnly {
            attributes |= JSPropertyAttributes(kJSPropertyAttributeReadOnly | kJSPropertyAttributeDontDelete)
        }
        if hidden { attributes |= JSPropertyAttributes(kJSPropertyAttributeDontEnum) }
        JSObjectSetProperty(context, global, key, value, attributes, nil)
    }

    /// Whether the global object has a property `name`.
    func hasGlobal(_ name: String) -> Bool {
        let key = Self.makeString(name)
        defer { JSStringRelease(key) }
        return JSObjectHasProperty(context, global, key)
    }

    /// The global object's enumerable properties: the variables a document declared.
    func globalVariableNames() -> [String] {
        let names = JSObjectCopyPropertyNames(context, global)
        defer { JSPropertyNameArrayRelease(names) }
        return (0..<JSPropertyNameArrayGetCount(names)).map { index in
            Self.string(JSPropertyNameArrayGetNameAtIndex(names, index))
        }
    }

    /// Assigns `value` to `location` as strict-mode ECMAScript does: a location that does not
    /// exist, or cannot be assigned, is an error.
    func assign(_ value: JSValueRef, to location: String, at position: SourcePosition) throws(SCXMLEvaluationError) {
        _ = try call(try setter(for: location, at: position), with: value, at: position)
    }

    /// The strict-mode function that assigns its argument to `location`, made once.
    private func setter(for location: String, at position: SourcePosition) throws(SCXMLEvaluationError) -> JSObjectRef {
        if let made = assigners[location] { return made }
        let made = try evaluate(
            "(function (value) { \"use strict\"; (" + location + "\n) = value; })", at: position)
        guard let object = JSValueToObject(context, made, nil) else {
            throw SCXMLEvaluationError("'\(location)' is not a location", at: position)
        }
        JSValueProtect(context, object)
        assigners[location] = object
        return object
    }

    /// Assigns the value of `expression` to `location`, as evaluating the expression and then
    /// ``assign(_:to:at:)`` do, in one call into JavaScriptCore when the expression is compiled
    /// (``compiledExpression(_:)``).
    ///
    /// The call runs a function made once per pair from the expression's function and the
    /// location's setter. What the expression throws comes back as a value, so that its error
    /// has the expression's position, as when it is evaluated alone; what the setter throws has
    /// the location's. When the expression is not compiled, or before the location's first
    /// assignment has made its setter, the two steps run as two calls.
    func assign(
        _ expression: SCXMLExpression, to location: String, at position: SourcePosition
    ) throws(SCXMLEvaluationError) {
        let key = AssignmentKey(location: location, expression: expression.text)
        guard let assignment = assignments[key] ?? makeAssignment(key, of: expression) else {
            let value = try evaluateExpression(expression)
            try assign(value, to: location, at: position)
            return
        }
        let result = try call(assignment, count: 0, arguments: nil, at: position)
        try checkHeapNow(at: position)
        // `undefined` once assigned; `[thrown]` when the expression threw.
        if JSValueIsObject(context, result), let thrown = JSValueToObject(context, result, nil) {
            throw error(from: JSObjectGetPropertyAtIndex(context, thrown, 0, nil), at: expression.location)
        }
    }

    /// The key of an assignment's function: the location's text and the expression's.
    struct AssignmentKey: Hashable {
        let location: String
        let expression: String
    }

    /// Makes and caches the function of one assignment; `nil` when the expression is not
    /// compiled, the location has no setter yet, or the cache is full. The setter is made by the
    /// first assignment to the location, in two calls, as it always was: making it evaluates the
    /// location's text, which must happen after the value, once.
    private func makeAssignment(_ key: AssignmentKey, of expression: SCXMLExpression) -> JSObjectRef? {
        guard assignments.count < Self.compiledExpressionLimit,
            let value = function(of: expression),
            let setter = assigners[key.location],
            let combine = assignmentCombinator ?? makeAssignmentCombinator()
        else { return nil }
        var arguments: [JSValueRef?] = [value, setter]
        var exception: JSValueRef?
        guard let made = JSObjectCallAsFunction(context, combine, nil, 2, &arguments, &exception),
            exception == nil, let function = JSValueToObject(context, made, nil)
        else { return nil }
        JSValueProtect(context, function)
        assignments[key] = function
        return function
    }

    /// The function that joins an expression's function and a setter into one assignment.
    private func makeAssignmentCombinator() -> JSObjectRef? {
        assignmentCombinator = makeFunction(
            """
            function (value, set) {
                return function () {
                    var result;
                    try { result = value(); } catch (thrown) { return [thrown]; }
                    set(result);
                };
            }
            """)
        return assignmentCombinator
    }

    /// Makes a function of ECMAScript source, kept for the context's life.
    func makeFunction(_ source: String) -> JSObjectRef? {
        let location = SourcePosition(file: "statecharts", line: 1, column: 1)
        let value: JSValueRef
        do {
            value = try evaluateTrusted("(" + source + ")", at: location)
        } catch {
            helperFailure = error
            return nil
        }
        guard let object = JSValueToObject(context, value, nil) else { return nil }
        JSValueProtect(context, object)
        protectedValues.append(object)
        return object
    }

    /// `Object.freeze`, as the context had it when it was made.
    func freezeFunction() -> JSObjectRef? {
        if let frozen = freezer { return frozen }
        freezer = makeFunction(
            "(function (freeze) { return function (value) { return freeze(value); }; })(Object.freeze)")
        return freezer
    }

    /// The archive's encoder and decoder (see ``archive(_:named:)``).
    func archiveHelpers() -> JSObjectRef? {
        if let archiveHelperObject { return archiveHelperObject }
        archiveHelperObject = makeFunction(Self.archiveSource)
        return archiveHelperObject
    }

    /// The DOM's builder and serializer (see ``makeDOM(_:)``).
    func domHelpers() -> JSObjectRef? {
        if let domHelperObject { return domHelperObject }
        domHelperObject = makeFunction(Self.domSource)
        return domHelperObject
    }

    // MARK: - In()

    private func installInFunction() {
        var definition = kJSClassDefinitionEmpty
        definition.callAsFunction = { context, function, _, count, arguments, exception in
            guard let context, let function, let raw = JSObjectGetPrivate(function) else { return nil }
            let owner = Unmanaged<JavaScriptContext>.fromOpaque(raw).takeUnretainedValue()
            guard count == 1, let arguments, let argument = arguments[0], JSValueIsString(context, argument) else {
                let message = JavaScriptContext.makeString("In() takes one state identifier, as a string")
                defer { JSStringRelease(message) }
                let error = JSValueMakeString(context, message)
                var errorObject: JSValueRef? = nil
                if let error { errorObject = JSObjectMakeError(context, 1, [error], nil) }
                exception?.pointee = errorObject
                return nil
            }
            let state = owner.string(argument)
            return JSValueMakeBoolean(context, owner.activeStateTest?(state) ?? false)
        }
        let functionClass = JSClassCreate(&definition)
        inFunctionClass = functionClass
        let function = JSObjectMake(context, functionClass, Unmanaged.passUnretained(self).toOpaque())
        if let function { setGlobal("In", function, readOnly: true, hidden: true) }
    }

    // MARK: - Strings

    static func makeString(_ text: String) -> JSStringRef {
        let units = Array(text.utf16)
        return units.withUnsafeBufferPointer { JSStringCreateWithCharacters($0.baseAddress, $0.count) }
    }

    static func string(_ string: JSStringRef) -> String {
        let count = JSStringGetLength(string)
        guard count > 0, let characters = JSStringGetCharactersPtr(string) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: characters, count: count), as: UTF16.self)
    }

    /// A value as ECMAScript's `String(value)` gives it.
    func string(_ value: JSValueRef) -> String {
        guard let copy = JSValueToStringCopy(context, value, nil) else { return "" }
        defer { JSStringRelease(copy) }
        return Self.string(copy)
    }
}
#endif
