// Compiled with the trait ECMAScript only: without it, this module is empty and needs no JavaScriptCore.
#if ECMAScript
import CJavaScriptCore
import Statecharts
import StatechartsSCXML

extension JavaScriptContext {
    /// A DOM document of XML content (SCXML B.2.2): `<data>` and `<content>` with XML children,
    /// and events that carry XML. The tree comes from ``SCXMLMarkup`` (Foundation's XML parser);
    /// the nodes are plain ECMAScript objects with the DOM's reading and editing methods
    /// (`getElementsByTagName`, `getAttribute`, `childNodes`, `textContent`, `documentElement`...).
    ///
    /// - Returns: `nil` when the markup is not well-formed XML.
    func makeDOM(_ markup: String) -> JSValueRef? {
        guard let nodes = SCXMLMarkup.parse(markup), let helpers = domHelpers(),
            let build = property("build", of: helpers)
        else { return nil }
        let tree = "[" + nodes.map(Self.json(of:)).joined(separator: ",") + "]"
        guard let description = parseJSON(tree) else { return nil }
        return try? call(build, [description], at: SourcePosition(file: "statecharts", line: 1, column: 1))
    }

    /// The markup of a DOM node made by ``makeDOM(_:)`` (edits included); `nil` for any other value.
    func markup(ofDOM value: JSValueRef) -> String? {
        guard JSValueIsObject(context, value), let helpers = domHelpers(),
            let serialize = property("serialize", of: helpers),
            let result = try? call(serialize, [value], at: SourcePosition(file: "statecharts", line: 1, column: 1)),
            JSValueIsString(context, result)
        else { return nil }
        return string(result)
    }

    /// A DOM document or element as an archive keeps it: its markup, and whether it is a whole
    /// document; `nil` for any other value (other nodes are not archived as DOM).
    func archivedDOM(_ value: JSValueRef) -> (markup: String, isDocument: Bool)? {
        guard let object = JSValueToObject(context, value, nil), let markup = markup(ofDOM: value) else { return nil }
        let key = Self.makeString("nodeType")
        defer { JSStringRelease(key) }
        guard let type = JSObjectGetProperty(context, object, key, nil), JSValueIsNumber(context, type) else {
            return nil
        }
        switch JSValueToNumber(context, type, nil) {
        case 9: return (markup, true)
        case 1: return (markup, false)
        default: return nil
        }
    }

    /// A DOM document or element made again from ``archivedDOM(_:)``.
    func restoreDOM(markup: String, isDocument: Bool) -> JSValueRef? {
        guard let document = makeDOM(markup) else { return nil }
        if isDocument { return document }
        guard let object = JSValueToObject(context, document, nil),
            let root = property("documentElement", of: object)
        else { return nil }
        return root
    }

    private func property(_ name: String, of object: JSObjectRef) -> JSObjectRef? {
        let key = Self.makeString(name)
        defer { JSStringRelease(key) }
        guard let value = JSObjectGetProperty(context, object, key, nil) else { return nil }
        return JSValueToObject(context, value, nil)
    }

    /// The tree as JSON for the builder: `{"e": name, "a": [[name, value]...], "c": [...]}` for an
    /// element, `{"t": text}` for character data.
    static func json(of node: SCXMLMarkup) -> String {
        switch node {
        case .text(let text):
            return "{\"t\":" + SCXMLValue.string(text).json + "}"
        case .element(let element):
            let attributes = element.attributes.map {
                "[" + SCXMLValue.string($0.name).json + "," + SCXMLValue.string($0.value).json + "]"
            }
            return "{\"e\":" + SCXMLValue.string(element.name).json + ",\"n\":"
                + SCXMLValue.string(element.namespace).json + ",\"a\":[" + attributes.joined(separator: ",")
                + "],\"c\":[" + element.children.map(json(of:)).joined(separator: ",") + "]}"
        }
    }

    /// The DOM's builder and serializer, made once per context.
    static let domSource = """
        function () {
            function hide(object, name, value) {
                Object.defineProperty(object, name, { value: value, enumerable: false, writable: true });
            }
            function Node() {}
            Node.prototype.hasChildNodes = function () { return this.childNodes.length > 0; };
            Node.prototype.getElementsByTagName = function (name) {
                var found = [];
                (function walk(node) {
                    node.childNodes.forEach(function (child) {
                        if (child.nodeType !== 1) { return; }
                        if (name === "*" || child.nodeName === name || child.localName === name) { found.push(child); }
                        walk(child);
                    });
                })(this);
                return found;
            };
            Node.prototype.appendChild = function (child) {
                hide(child, "parentNode", this);
                this.childNodes.push(child);
                return child;
            };
            Node.prototype.removeChild = function (child) {
                var index = this.childNodes.indexOf(child);
                if (index >= 0) { this.childNodes.splice(index, 1); hide(child, "parentNode", null); }
                return child;
            };
            Object.defineProperty(Node.prototype, "firstChild", {
                get: function () { return this.childNodes[0] || null; }
            });
            Object.defineProperty(Node.prototype, "lastChild", {
                get: function () { return this.childNodes[this.childNodes.length - 1] || null; }
            });
            Object.defineProperty(Node.prototype, "textContent", {
                get: function () {
                    if (this.nodeType === 3) { return this.data; }
                    return this.childNodes.map(function (child) { return child.textContent; }).join("");
                }
            });
            function Element(name, namespace, attributes) {
                hide(this, "nodeType", 1);
                hide(this, "nodeName", name);
                hide(this, "tagName", name);
                hide(this, "localName", name.indexOf(":") >= 0 ? name.slice(name.indexOf(":") + 1) : name);
                hide(this, "namespaceURI", namespace || null);
                hide(this, "attributes", attributes.map(function (pair) { return { name: pair[0], value: pair[1] }; }));
                hide(this, "childNodes", []);
                hide(this, "parentNode", null);
            }
            Element.prototype = Object.create(Node.prototype);
            Element.prototype.getAttribute = function (name) {
                for (var i = 0; i < this.attributes.length; i++) {
                    if (this.attributes[i].name === name) { return this.attributes[i].value; }
                }
                return null;
            };
            Element.prototype.hasAttribute = function (name) { return this.getAttribute(name) !== null; };
            Element.prototype.setAttribute = function (name, value) {
                for (var i = 0; i < this.attributes.length; i++) {
                    if (this.attributes[i].name === name) { this.attributes[i].value = String(value); return; }
                }
                this.attributes.push({ name: name, value: String(value) });
            };
            Element.prototype.removeAttribute = function (name) {
                this.attributes = this.attributes.filter(function (pair) { return pair.name !== name; });
            };
            Object.defineProperty(Element.prototype, "children", {
                get: function () { return this.childNodes.filter(function (child) { return child.nodeType === 1; }); }
            });
            function Text(data) {
                hide(this, "nodeType", 3);
                hide(this, "nodeName", "#text");
                hide(this, "data", data);
                hide(this, "childNodes", []);
                hide(this, "parentNode", null);
            }
            Text.prototype = Object.create(Node.prototype);
            Object.defineProperty(Text.prototype, "nodeValue", { get: function () { return this.data; } });
            function Document() {
                hide(this, "nodeType", 9);
                hide(this, "nodeName", "#document");
                hide(this, "childNodes", []);
                hide(this, "parentNode", null);
            }
            Document.prototype = Object.create(Node.prototype);
            Object.defineProperty(Document.prototype, "documentElement", {
                get: function () { return this.childNodes.filter(function (child) { return child.nodeType === 1; })[0] || null; }
            });
            Document.prototype.createElement = function (name) { return new Element(name, null, []); };
            Document.prototype.createTextNode = function (data) { return new Text(String(data)); };
            function make(description) {
                if (description.t !== undefined) { return new Text(description.t); }
                var element = new Element(description.e, description.n, description.a);
                description.c.forEach(function (child) { element.appendChild(make(child)); });
                return element;
            }
            function escape(text, attribute) {
                text = String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
                return attribute ? text.replace(/"/g, "&quot;") : text;
            }
            function serialize(node) {
                if (!(node instanceof Node)) { return undefined; }
                if (node.nodeType === 3) { return escape(node.data, false); }
                var inner = node.childNodes.map(serialize).join("");
                if (node.nodeType === 9) { return inner; }
                var start = "<" + node.nodeName + node.attributes.map(function (pair) {
                    return " " + pair.name + "=\\"" + escape(pair.value, true) + "\\"";
                }).join("");
                return inner.length === 0 ? start + "/>" : start + ">" + inner + "</" + node.nodeName + ">";
            }
            return {
                build: function (nodes) {
                    var document = new Document();
                    nodes.forEach(function (description) { document.appendChild(make(description)); });
                    return document;
                },
                serialize: serialize
            };
        }()
        """
}
#endif
