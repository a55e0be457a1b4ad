// Compiled with the trait ECMAScript only: without it, this module is empty and needs no JavaScriptCore.
#if ECMAScript
import CJavaScriptCore
import Statecharts
import StatechartsSCXML

extension JavaScriptContext {
    /// The ECMAScript value of an SCXML value.
    func makeValue(_ value: SCXMLValue) -> JSValueRef {
        switch value {
        case .null:
            return JSValueMakeNull(context)
        case .bool(let flag):
            return JSValueMakeBoolean(context, flag)
        case .number(let number):
            return JSValueMakeNumber(context, number)
        case .string(let text):
            let string = Self.makeString(text)
            defer { JSStringRelease(string) }
            return JSValueMakeString(context, string)
        case .array, .object:
            return parseJSON(value.json) ?? JSValueMakeNull(context)
        case .xml(let markup):
            return makeDOM(markup) ?? makeValue(.string(markup))
        }
    }

    /// The value of a JSON text; `nil` when the text is not JSON.
    func parseJSON(_ text: String) -> JSValueRef? {
        let string = Self.makeString(text)
        defer { JSStringRelease(string) }
        return JSValueMakeFromJSONString(context, string)
    }

    /// The value as JSON text; `nil` for values JSON cannot hold (`undefined`, functions) and for
    /// values that cannot be written (cycles).
    func json(_ value: JSValueRef) -> String? {
        guard let string = JSValueCreateJSONString(context, value, 0, nil) else { return nil }
        defer { JSStringRelease(string) }
        return Self.string(string)
    }

    /// The SCXML value of an ECMAScript value: JSON's shapes. `undefined` is `null`; a function or
    /// a cycle, which JSON cannot hold, is an error.
    func scxmlValue(_ value: JSValueRef, at location: SourcePosition) throws(SCXMLEvaluationError) -> SCXMLValue {
        switch JSValueGetType(context, value) {
        case kJSTypeUndefined, kJSTypeNull:
            return .null
        case kJSTypeBoolean:
            return .bool(JSValueToBoolean(context, value))
        case kJSTypeNumber:
            return .number(JSValueToNumber(context, value, nil))
        case kJSTypeString:
            return .string(string(value))
        default:
            if JSValueIsObject(context, value), let object = JSValueToObject(context, value, nil),
                JSObjectIsFunction(context, object)
            {
                throw SCXMLEvaluationError("a function is not a data value", at: location)
            }
            if let markup = markup(ofDOM: value) { return .xml(markup) }
            guard let text = json(value), let converted = SCXMLValue(json: text) else {
                throw SCXMLEvaluationError(
                    "the value '\(string(value))' cannot be written as data (JSON)", at: location)
            }
            return converted
        }
    }
}
#endif
