// Compiled with the trait ECMAScript only: without it, this module is empty and needs no JavaScriptCore.
#if ECMAScript
import CJavaScriptCore
import Statecharts
import StatechartsSCXML

extension JavaScriptContext {
    /// Binds `_event` to `event`. Nothing is made yet: `_event`'s object is made when a script
    /// first reads it while this event is bound, and every later read gives the same object. Most
    /// events run scripts that never read `_event`, and then cost nothing here.
    func bind(_ event: SCXMLEvent) {
        if let boundEventObject {
            JSValueUnprotect(context, boundEventObject)
            self.boundEventObject = nil
        }
        boundEvent = event
    }

    /// `_event` as scripts read it: the bound event's object, made the first time; `undefined`
    /// before the first event.
    func eventValue() -> JSValueRef {
        if let boundEventObject { return boundEventObject }
        guard let event = boundEvent, let object = makeEventObject(event) else {
            return JSValueMakeUndefined(context)
        }
        JSValueProtect(context, object)
        boundEventObject = object
        return object
    }

    /// A frozen object with the event's fields; absent fields are `undefined`.
    ///
    /// The fields are set while the object has no prototype, so that no setter a script put on
    /// `Object.prototype` sees or changes them. Then it gets `Object.prototype` back and is frozen
    /// with `Object.freeze` as the context had it before any document ran.
    private func makeEventObject(_ event: SCXMLEvent) -> JSObjectRef? {
        let undefined = JSValueMakeUndefined(context)
        guard let object = JSObjectMake(context, nil, nil) else { return nil }
        let prototype = JSObjectGetPrototype(context, object)
        JSObjectSetPrototype(context, object, JSValueMakeNull(context))
        func set(_ name: String, _ value: JSValueRef?) {
            let key = Self.makeString(name)
            defer { JSStringRelease(key) }
            JSObjectSetProperty(
                context, object, key, value ?? undefined,
                JSPropertyAttributes(kJSPropertyAttributeReadOnly | kJSPropertyAttributeDontDelete), nil)
        }
        set("name", makeValue(.string(event.name)))
        set("type", makeValue(.string(event.type.rawValue)))
        set("sendid", event.sendID.map { makeValue(.string($0)) })
        set("origin", event.origin.map { makeValue(.string($0)) })
        set("origintype", event.originType.map { makeValue(.string($0)) })
        set("invokeid", event.invokeID.map { makeValue(.string($0)) })
        set("data", event.data.map { makeValue($0) })
        set("raw", event.raw.map { makeValue(.string($0)) })
        JSObjectSetPrototype(context, object, prototype)
        if let freezer = freezeFunction() {
            var argument: JSValueRef? = object
            _ = JSObjectCallAsFunction(context, freezer, nil, 1, &argument, nil)
        }
        return object
    }

    /// Defines `_event` on the global object, before any document runs: read-only (it has a
    /// getter only), not enumerable, not configurable, and read through ``eventValue()``.
    func installEventGetter() {
        var definition = kJSClassDefinitionEmpty
        definition.callAsFunction = { context, function, _, _, _, _ in
            guard let function, let raw = JSObjectGetPrivate(function) else { return JSValueMakeUndefined(context) }
            return Unmanaged<JavaScriptContext>.fromOpaque(raw).takeUnretainedValue().eventValue()
        }
        let getterClass = JSClassCreate(&definition)
        eventGetterClass = getterClass
        guard let getter = JSObjectMake(context, getterClass, Unmanaged.passUnretained(self).toOpaque()),
            let define = makeFunction(
                """
                function (getter) {
                    Object.defineProperty(globalThis, "_event", { get: getter, enumerable: false, configurable: false });
                }
                """)
        else { return }
        _ = try? call(define, [getter], at: SourcePosition(file: "statecharts", line: 1, column: 1))
    }
}
#endif
