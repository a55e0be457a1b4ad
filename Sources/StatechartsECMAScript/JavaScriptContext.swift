// Compiled with the trait ECMAScript only: without it, this module is empty and needs no JavaScriptCore.
#if ECMAScript
import CJavaScriptCore
import Statecharts
import StatechartsSCXML

/// One JavaScriptCore virtual machine with one global object: the variables of one session.
///
/// The context is a sandbox. Its global object has ECMAScript's built-ins only (no file, network
/// or process access: JavaScriptCore's C API adds none, and modules cannot be loaded), and every
/// evaluation is stopped when it runs longer than the time limit.
///
/// Not thread-safe on its own: one machine uses it at a time, as a machine's context is used.
final class JavaScriptContext: @unchecked Sendable {
    let group: JSContextGroupRef
    let context: JSGlobalContextRef
    let timeLimit: Duration?
    /// Which states are active, while an evaluation that may call `In()` runs.
    private var activeStateTest: ((String) -> Bool)?
    /// Functions made once per context, protected from the collector.
    private var protectedValues: [JSValueRef] = []
    /// Assignment functions by location, made once each.
    private var assigners: [String: JSObjectRef] = [:]
    private var inFunctionClass: JSClassRef?
    /// Binds `_event`: a read-only global, `undefined` until the first event, which scripts cannot
    /// assign and only this function changes.
    private(set) var eventBinder: JSObjectRef?
    /// The DOM's builder and serializer, made the first time XML content is used.
    private var domHelperObject: JSObjectRef?

    /// The message JavaScriptCore gives a script it stopped.
    static let terminationMessage = "JavaScript execution terminated."

    init(timeLimit: Duration?) {
        group = JSContextGroupCreate()
        context = JSGlobalContextCreateInGroup(group, nil)
        self.timeLimit = timeLimit
        if let timeLimit {
            let (seconds, attoseconds) = timeLimit.components
            let limit = Double(seconds) + Double(attoseconds) / 1e18
            // Returning true stops the script; JavaScriptCore then throws an uncatchable exception.
            JSContextGroupSetExecutionTimeLimit(group, max(limit, 0.001), { _, _ in true }, nil)
        }
        installInFunction()
        eventBinder = makeFunction(
            """
            function () {
                var current;
                Object.defineProperty(globalThis, "_event", {
                    get: function () { return current; }, enumerable: false, configurable: false
                });
                return function (event) { current = event; };
            }()
            """)
    }

    deinit {
        for value in protectedValues { JSValueUnprotect(context, value) }
        for function in assigners.values { JSValueUnprotect(context, function) }
        if let inFunctionClass { JSClassRelease(inFunctionClass) }
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

    /// Evaluates a script or expression at global scope.
    func evaluate(_ source: String, at location: SourcePosition) throws(SCXMLEvaluationError) -> JSValueRef {
        let script = Self.makeString(source)
        defer { JSStringRelease(script) }
        let url = Self.makeString(location.file)
        defer { JSStringRelease(url) }
        var exception: JSValueRef?
        let result = JSEvaluateScript(context, script, nil, url, Int32(clamping: location.line), &exception)
        if let exception { throw error(from: exception, at: location) }
        guard let result else { throw SCXMLEvaluationError("the script gave no value", at: location) }
        return result
    }

    /// Evaluates an expression: its text in parentheses, so that an object literal is an object
    /// and a statement is an error.
    ///
    /// Semicolons and white space at the end are dropped: documents write `expr="f();"`.
    func evaluateExpression(_ expression: SCXMLExpression) throws(SCXMLEvaluationError) -> JSValueRef {
        var text = Substring(expression.text)
        while let last = text.last, last == ";" || last.isWhitespace { text.removeLast() }
        return try evaluate("(" + text + "\n)", at: expression.location)
    }

    /// Calls `function` with `arguments`.
    func call(
        _ function: JSObjectRef, _ arguments: [JSValueRef?], at location: SourcePosition
    ) throws(SCXMLEvaluationError) -> JSValueRef {
        var exception: JSValueRef?
        let result = arguments.withUnsafeBufferPointer { buffer in
            JSObjectCallAsFunction(context, function, nil, buffer.count, buffer.baseAddress, &exception)
        }
        if let exception { throw error(from: exception, at: location) }
        return result ?? JSValueMakeUndefined(context)
    }

    /// The evaluation error for a thrown value, with a sentence for a script that was stopped.
    func error(from exception: JSValueRef, at location: SourcePosition) -> SCXMLEvaluationError {
        let message = string(exception)
        if message.contains(Self.terminationMessage) {
            let limit = timeLimit.map { " of \($0)" } ?? ""
            return SCXMLEvaluationError("the script ran past its time limit\(limit) and was stopped", at: location)
        }
        return SCXMLEvaluationError(message, at: location)
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
        let function: JSObjectRef
        if let made = assigners[location] {
            function = made
        } else {
            let made = try evaluate(
                "(function (value) { \"use strict\"; (" + location + "\n) = value; })", at: position)
            guard let object = JSValueToObject(context, made, nil) else {
                throw SCXMLEvaluationError("'\(location)' is not a location", at: position)
            }
            JSValueProtect(context, object)
            assigners[location] = object
            function = object
        }
        _ = try call(function, [value], at: position)
    }

    /// Makes a function of ECMAScript source, kept for the context's life.
    func makeFunction(_ source: String) -> JSObjectRef? {
        let location = SourcePosition(file: "statecharts", line: 1, column: 1)
        guard let value = try? evaluate("(" + source + ")", at: location),
            let object = JSValueToObject(context, value, nil)
        else { return nil }
        JSValueProtect(context, object)
        protectedValues.append(object)
        return object
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
