// Compiled with the trait ECMAScript only: without it, this module is empty and needs no JavaScriptCore.
#if ECMAScript
import CJavaScriptCore
import Foundation
import Statecharts
import StatechartsSCXML

/// Why a value cannot be archived: a sentence that names where it is (`items[3].owner is a
/// WeakMap`).
struct UnarchivableValue: Error {
    var reason: String
}

extension JavaScriptContext {
    /// How deep values may nest in an archive, when it is written and when it is read: the same
    /// limit both ways, so that an archive written can always be read.
    static let maximumArchiveDepth = 1000

    /// `value` as the text of an archive: JSON in which every value the data model can hold keeps
    /// what it is.
    ///
    /// Strings, booleans, `null` and finite numbers are themselves (JSON's number text is the
    /// shortest that reads back as the same double). Everything else is an object tagged by `$`:
    /// `undefined`, NaN, ±Infinity and -0; BigInts; arrays (with their holes and extra properties),
    /// plain objects (and those without a prototype), Dates, RegExps, Maps, Sets, ArrayBuffers and
    /// the typed arrays over them (their bytes, so that every NaN keeps its bits); functions as
    /// their source; DOM documents and elements as their markup. Each object has an `id`, and a
    /// second reference to it is `{"$": "ref"}`: shared objects stay shared and cycles are kept.
    /// Frozen, sealed and non-extensible objects stay so.
    ///
    /// - Throws: ``UnarchivableValue`` naming where a value is that no archive can hold: a symbol,
    ///   a WeakMap, a Promise, an instance of a class, an object with a getter or a property that
    ///   is not enumerable, XML deeper than a restore reads, or values nested deeper than
    ///   ``maximumArchiveDepth``.
    func archive(_ value: JSValueRef, named name: String) throws(UnarchivableValue) -> String {
        guard let helpers = archiveHelpers(), let encode = helperFunction("encode", of: helpers),
            let dom = domHelpers()
        else { throw UnarchivableValue(reason: helpersMissing) }
        let path = Self.makeString(name)
        defer { JSStringRelease(path) }
        let arguments: [JSValueRef?] = [
            value, dom, JSValueMakeString(context, path), JSValueMakeNumber(context, Double(Self.maximumArchiveDepth)),
            JSValueMakeNumber(context, Double(SCXMLMarkup.maximumDepth - 2)),
        ]
        let text: JSValueRef
        do {
            text = try call(encode, arguments, at: Self.archiveLocation)
        } catch {
            throw UnarchivableValue(reason: error.message.replacingOccurrences(of: "Error: ", with: ""))
        }
        guard JSValueIsString(context, text) else { throw UnarchivableValue(reason: "\(name) cannot be written") }
        return string(text)
    }

    /// Why the archive's helpers are missing: what stopped their making, such as the script time.
    var helpersMissing: String {
        "the archive's helpers cannot be made" + (helperFailure.map { ": \($0.message)" } ?? "")
    }

    /// The value an archive's text (``archive(_:named:)``) holds, made anew in this context.
    ///
    /// - Throws: ``UnarchivableValue`` when the text is not such an archive, nests deeper than
    ///   ``maximumArchiveDepth``, or holds a function whose source does not evaluate or XML that
    ///   does not parse.
    func restoreArchived(_ text: String, named name: String) throws(UnarchivableValue) -> JSValueRef {
        guard let helpers = archiveHelpers(), let decode = helperFunction("decode", of: helpers),
            let prebuilds = helperFunction("prebuilds", of: helpers)
        else { throw UnarchivableValue(reason: helpersMissing) }
        let source = Self.makeString(text)
        defer { JSStringRelease(source) }
        let depth = JSValueMakeNumber(context, Double(Self.maximumArchiveDepth))
        // Functions and XML are made here first, by id: the context's scripts cannot evaluate
        // source (eval is off), and the DOM is built from Foundation's parser.
        let wanted: JSValueRef
        do {
            wanted = try call(prebuilds, [JSValueMakeString(context, source), depth], at: Self.archiveLocation)
        } catch {
            throw UnarchivableValue(reason: "the archive of \(name) cannot be read: \(error.message)")
        }
        let prebuilt = JSObjectMake(context, nil, nil)
        for item in elements(of: wanted) {
            let fields = elements(of: item)
            guard fields.count == 4, JSValueIsNumber(context, fields[0]) else { continue }
            let number = JSValueToNumber(context, fields[0], nil)
            guard number >= 0, number < Double(UInt32.max), number == number.rounded() else {
                throw UnarchivableValue(reason: "the archive of \(name) has an object id \(number)")
            }
            let kind = string(fields[1])
            let payload = string(fields[2])
            let made: JSValueRef?
            if kind == "function" {
                made = try? evaluate("(" + payload + "\n)", at: Self.archiveLocation)
            } else {
                made = restoreDOM(markup: payload, isDocument: JSValueToBoolean(context, fields[3]))
            }
            guard let made else {
                throw UnarchivableValue(
                    reason: kind == "function"
                        ? "a function of \(name) cannot be made again from its source"
                        : "the XML of \(name) cannot be read again")
            }
            JSObjectSetPropertyAtIndex(context, prebuilt, UInt32(number), made, nil)
        }
        do {
            return try call(decode, [JSValueMakeString(context, source), prebuilt, depth], at: Self.archiveLocation)
        } catch {
            throw UnarchivableValue(reason: "the archive of \(name) cannot be read: \(error.message)")
        }
    }

    /// The own enumerable properties of an object, by name.
    func ownProperties(of value: JSValueRef) -> [(String, JSValueRef)] {
        guard let object = JSValueToObject(context, value, nil) else { return [] }
        let names = JSObjectCopyPropertyNames(context, object)
        defer { JSPropertyNameArrayRelease(names) }
        return (0..<JSPropertyNameArrayGetCount(names)).compactMap { index in
            guard let name = JSPropertyNameArrayGetNameAtIndex(names, index),
                let property = JSObjectGetProperty(context, object, name, nil)
            else { return nil }
            return (Self.string(name), property)
        }
    }

    /// The elements of a JavaScript array.
    private func elements(of value: JSValueRef) -> [JSValueRef] {
        guard let object = JSValueToObject(context, value, nil) else { return [] }
        let key = Self.makeString("length")
        defer { JSStringRelease(key) }
        guard let length = JSObjectGetProperty(context, object, key, nil) else { return [] }
        let count = Int(clamping: Int64(max(0, min(JSValueToNumber(context, length, nil), 1e9))))
        return (0..<count).compactMap { JSObjectGetPropertyAtIndex(context, object, UInt32($0), nil) }
    }

    static let archiveLocation = SourcePosition(file: "statecharts archive", line: 1, column: 1)

    private func helperFunction(_ name: String, of object: JSObjectRef) -> JSObjectRef? {
        let key = Self.makeString(name)
        defer { JSStringRelease(key) }
        guard let value = JSObjectGetProperty(context, object, key, nil) else { return nil }
        return JSValueToObject(context, value, nil)
    }

    /// The archive's encoder and decoder, made once per context, the first time one is needed,
    /// with the builtins the context has then.
    static let archiveSource = #"""
        function (Object, Array, Map, Set, Date, RegExp, ArrayBuffer, Uint8Array, JSON, BigInt, Math, Error, globalThis) {
            var typedNames = ["Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array",
                "Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"];
            var typedPrototypes = new Map();
            typedNames.forEach(function (name) {
                if (typeof globalThis[name] === "function") { typedPrototypes.set(globalThis[name].prototype, globalThis[name]); }
            });
            var specials = { "NaN": NaN, "Infinity": Infinity, "-Infinity": -Infinity, "-0": -0 };
            function number(v) {
                if (v !== v) { return { "$": "number", "v": "NaN" }; }
                if (v === Infinity) { return { "$": "number", "v": "Infinity" }; }
                if (v === -Infinity) { return { "$": "number", "v": "-Infinity" }; }
                if (v === 0 && 1 / v < 0) { return { "$": "number", "v": "-0" }; }
                return v;
            }
            function integrity(v) {
                if (Object.isFrozen(v)) { return "frozen"; }
                if (Object.isSealed(v)) { return "sealed"; }
                if (!Object.isExtensible(v)) { return "fixed"; }
                return undefined;
            }
            function describe(v) {
                var prototype = Object.getPrototypeOf(v);
                var constructor = prototype && Object.prototype.hasOwnProperty.call(prototype, "constructor") ? prototype.constructor : null;
                if (!constructor || !constructor.name) { return "an object of another kind"; }
                return ("AEIOU".indexOf(constructor.name.charAt(0)) >= 0 ? "an " : "a ") + constructor.name;
            }
            function encode(root, dom, rootPath, maxDepth, maxDOMDepth) {
                var ids = new Map();
                var next = 0;
                function fail(path, what) {
                    var shown = path.length > 120 ? path.slice(0, 60) + "…" + path.slice(-50) : path;
                    throw new Error(shown + " " + what);
                }
                function child(path, key) { return path === "" ? key : path + "." + key; }
                function domDepth(node, depth) {
                    if (depth > maxDOMDepth) { return depth; }
                    var deepest = depth;
                    (node.childNodes || []).forEach(function (child) { deepest = Math.max(deepest, domDepth(child, depth + 1)); });
                    return deepest;
                }
                function entriesOf(v, path, depth, skipIndices) {
                    if (Object.getOwnPropertySymbols(v).length > 0) { fail(path, "has a property named by a symbol"); }
                    var names = Object.getOwnPropertyNames(v);
                    var entries = [];
                    names.forEach(function (key) {
                        if (skipIndices && (key === "length" || String(key >>> 0) === key && (key >>> 0) < v.length)) { return; }
                        var descriptor = Object.getOwnPropertyDescriptor(v, key);
                        if (descriptor.get || descriptor.set) { fail(child(path, key), "is a getter or a setter"); }
                        if (!descriptor.enumerable) { fail(child(path, key), "is a property that is not enumerable"); }
                        entries.push([key, walk(descriptor.value, child(path, key), depth + 1)]);
                    });
                    return entries;
                }
                function tagged(out, v) {
                    var kept = integrity(v);
                    if (kept !== undefined) { out.integrity = kept; }
                    return out;
                }
                function walk(v, path, depth) {
                    if (depth > maxDepth) { fail(path, "is nested more than " + maxDepth + " levels deep"); }
                    switch (typeof v) {
                    case "undefined": return { "$": "undefined" };
                    case "boolean": return v;
                    case "string": return v;
                    case "number": return number(v);
                    case "bigint": return { "$": "bigint", "v": v.toString() };
                    case "symbol": fail(path, "is a symbol");
                    }
                    if (v === null) { return null; }
                    if (ids.has(v)) { return { "$": "ref", "id": ids.get(v) }; }
                    var id = next;
                    next += 1;
                    ids.set(v, id);
                    if (typeof v === "function") {
                        return { "$": "function", "id": id, "source": Function.prototype.toString.call(v) };
                    }
                    var markup = dom.serialize(v);
                    if (markup !== undefined) {
                        if (v.nodeType !== 9 && v.nodeType !== 1) { fail(path, "is a DOM node other than a document or an element"); }
                        if (domDepth(v, 0) > maxDOMDepth) { fail(path, "is XML nested more than " + maxDOMDepth + " levels deep, deeper than a restore reads"); }
                        return { "$": "dom", "id": id, "markup": markup, "document": v.nodeType === 9 };
                    }
                    var prototype = Object.getPrototypeOf(v);
                    if (prototype === Array.prototype) {
                        var items = [];
                        for (var index = 0; index < v.length; index += 1) {
                            items.push(Object.prototype.hasOwnProperty.call(v, index) ? walk(v[index], path + "[" + index + "]", depth + 1) : { "$": "hole" });
                        }
                        var out = { "$": "array", "id": id, "items": items };
                        var extra = entriesOf(v, path, depth, true);
                        if (extra.length > 0) { out.entries = extra; }
                        return tagged(out, v);
                    }
                    if (prototype === Object.prototype || prototype === null) {
                        var object = { "$": "object", "id": id, "entries": entriesOf(v, path, depth, false) };
                        if (prototype === null) { object.prototype = null; }
                        return tagged(object, v);
                    }
                    if (prototype === Date.prototype) { return { "$": "date", "id": id, "v": number(v.getTime()) }; }
                    if (prototype === RegExp.prototype) {
                        return { "$": "regexp", "id": id, "source": v.source, "flags": v.flags, "lastIndex": number(v.lastIndex) };
                    }
                    if (prototype === Map.prototype) {
                        var pairs = [];
                        var position = 0;
                        v.forEach(function (value, key) {
                            pairs.push([walk(key, path + ".keys[" + position + "]", depth + 1), walk(value, path + ".get(" + position + ")", depth + 1)]);
                            position += 1;
                        });
                        return { "$": "map", "id": id, "entries": pairs };
                    }
                    if (prototype === Set.prototype) {
                        var values = [];
                        v.forEach(function (value) { values.push(walk(value, path + ".values[" + values.length + "]", depth + 1)); });
                        return { "$": "set", "id": id, "values": values };
                    }
                    if (prototype === ArrayBuffer.prototype) {
                        return { "$": "buffer", "id": id, "bytes": Array.prototype.slice.call(new Uint8Array(v)) };
                    }
                    if (typedPrototypes.has(prototype)) {
                        return {
                            "$": "typed", "id": id, "type": typedPrototypes.get(prototype).name,
                            "buffer": walk(v.buffer, path + ".buffer", depth + 1), "offset": v.byteOffset, "length": v.length
                        };
                    }
                    fail(path, "is " + describe(v) + ", which an archive cannot hold");
                }
                return JSON.stringify(walk(root, rootPath, 0));
            }
            function decode(text, prebuilt, maxDepth) {
                var objects = [];
                function bad(what) { throw new Error("the archive " + what); }
                function settle(out, t) {
                    if (t.integrity === "frozen") { Object.freeze(out); }
                    else if (t.integrity === "sealed") { Object.seal(out); }
                    else if (t.integrity === "fixed") { Object.preventExtensions(out); }
                    return out;
                }
                function define(target, key, value) {
                    Object.defineProperty(target, key, { value: value, writable: true, enumerable: true, configurable: true });
                }
                function identified(t) {
                    if (typeof t.id !== "number" || t.id !== (t.id >>> 0) || objects[t.id] !== undefined) { bad("repeats or lacks an object's id"); }
                    return t.id;
                }
                function build(t, depth) {
                    if (depth > maxDepth + 1) { bad("is nested more than " + maxDepth + " levels deep"); }
                    if (t === null || typeof t !== "object") { return t; }
                    if (Array.isArray(t)) { bad("holds an untagged array"); }
                    var id;
                    switch (t["$"]) {
                    case "undefined": return undefined;
                    case "number":
                        if (!Object.prototype.hasOwnProperty.call(specials, t.v)) { bad("holds the number " + t.v); }
                        return specials[t.v];
                    case "bigint": return BigInt(t.v);
                    case "ref":
                        if (objects[t.id] === undefined) { bad("refers to an object it has not made"); }
                        return objects[t.id];
                    case "function":
                    case "dom":
                        id = identified(t);
                        objects[id] = prebuilt[id];
                        if (objects[id] === undefined) { bad("holds a value that was not made"); }
                        return objects[id];
                    case "array":
                        id = identified(t);
                        var array = new Array(t.items.length);
                        objects[id] = array;
                        t.items.forEach(function (item, index) {
                            if (!(item !== null && typeof item === "object" && item["$"] === "hole")) { array[index] = build(item, depth + 1); }
                        });
                        (t.entries || []).forEach(function (entry) { define(array, String(entry[0]), build(entry[1], depth + 1)); });
                        return settle(array, t);
                    case "object":
                        id = identified(t);
                        var object = t.prototype === null ? Object.create(null) : {};
                        objects[id] = object;
                        t.entries.forEach(function (entry) { define(object, String(entry[0]), build(entry[1], depth + 1)); });
                        return settle(object, t);
                    case "date":
                        id = identified(t);
                        objects[id] = new Date(build(t.v, depth + 1));
                        return objects[id];
                    case "regexp":
                        id = identified(t);
                        var expression = new RegExp(String(t.source), String(t.flags));
                        expression.lastIndex = build(t.lastIndex, depth + 1);
                        objects[id] = expression;
                        return expression;
                    case "map":
                        id = identified(t);
                        var map = new Map();
                        objects[id] = map;
                        t.entries.forEach(function (entry) { map.set(build(entry[0], depth + 1), build(entry[1], depth + 1)); });
                        return map;
                    case "set":
                        id = identified(t);
                        var set = new Set();
                        objects[id] = set;
                        t.values.forEach(function (value) { set.add(build(value, depth + 1)); });
                        return set;
                    case "buffer":
                        id = identified(t);
                        var bytes = new Uint8Array(t.bytes.length);
                        t.bytes.forEach(function (byte, index) { bytes[index] = byte; });
                        objects[id] = bytes.buffer;
                        return bytes.buffer;
                    case "typed":
                        id = identified(t);
                        if (typedNames.indexOf(t.type) < 0 || typeof globalThis[t.type] !== "function") { bad("holds the array type " + t.type); }
                        var buffer = build(t.buffer, depth + 1);
                        if (!(buffer instanceof ArrayBuffer)) { bad("holds a typed array without a buffer"); }
                        objects[id] = new globalThis[t.type](buffer, t.offset, t.length);
                        return objects[id];
                    default:
                        bad("holds a value tagged " + String(t["$"]));
                    }
                }
                return build(JSON.parse(text), 0);
            }
            function prebuilds(text, maxDepth) {
                var found = [];
                function visit(t, depth) {
                    if (depth > maxDepth + 2 || t === null || typeof t !== "object") { return; }
                    if (Array.isArray(t)) { t.forEach(function (item) { visit(item, depth + 1); }); return; }
                    if (t["$"] === "function") { found.push([t.id, "function", String(t.source), false]); }
                    if (t["$"] === "dom") { found.push([t.id, "dom", String(t.markup), t.document === true]); }
                    Object.keys(t).forEach(function (key) { visit(t[key], depth + 1); });
                }
                visit(JSON.parse(text), 0);
                return found;
            }
            return { encode: encode, decode: decode, prebuilds: prebuilds };
        }(Object, Array, Map, Set, Date, RegExp, ArrayBuffer, Uint8Array, JSON, BigInt, Math, Error, globalThis)
        """#
}
#endif
