import Foundation
import Statecharts

extension SCXMLDocument {
    /// The document with the files its `<data src>` and `<script src>` name read in, as inline
    /// content and script text, with a diagnostic for each file that cannot be read: an error for
    /// a script (SCXML says such a document must be rejected), a warning for data.
    ///
    /// A `src` is a path relative to the document's folder (`file:` in front is allowed). A
    /// document is untrusted, so it reads nothing outside its folder: an absolute path, a path
    /// out of the folder and any other URL scheme are refused. An element whose file is not read
    /// keeps its `src`; for `<data>`, it raises `error.execution` when it is evaluated, as SCXML asks.
    func resolvingSources() -> (document: SCXMLDocument, diagnostics: [SCXMLDiagnostic]) {
        var resolver = SourceResolver(documentFile: location.file)
        var document = self
        document.data = data.map { resolver.resolve($0) }
        document.script = script.map { resolver.resolve($0) }
        document.states = states.map { resolver.resolve($0) }
        document.transitions = transitions.map { resolver.resolve($0) }
        return (document, resolver.diagnostics)
    }
}

/// Reads the files of `src` attributes, relative to a document.
struct SourceResolver {
    let folder: URL?
    /// What could not be read.
    var diagnostics: [SCXMLDiagnostic] = []

    init(documentFile: String) {
        let file = URL(fileURLWithPath: documentFile)
        folder =
            FileManager.default.fileExists(atPath: file.path)
            ? file.deletingLastPathComponent().standardizedFileURL : nil
    }

    /// The text of the file `source` names, or `nil` with a warning.
    mutating func read(
        _ source: String, at location: SourcePosition, severity: SCXMLDiagnostic.Severity = .warning
    ) -> String? {
        var path = source
        if path.hasPrefix("file:") { path.removeFirst("file:".count) }
        guard let folder else {
            report(
                "'\(source)' cannot be read: the document has no folder (it was not read from a file)", at: location,
                severity)
            return nil
        }
        guard !path.contains("://"), !path.hasPrefix("/"), !path.isEmpty else {
            report(
                "'\(source)' is not read: a src must be a path relative to the document's folder", at: location,
                severity)
            return nil
        }
        let file = folder.appendingPathComponent(path).standardizedFileURL
        guard file.path.hasPrefix(folder.path.hasSuffix("/") ? folder.path : folder.path + "/") else {
            report("'\(source)' is not read: it is outside the document's folder", at: location, severity)
            return nil
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            report("the file '\(source)' cannot be read", at: location, severity)
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }

    mutating func report(_ message: String, at location: SourcePosition, _ severity: SCXMLDiagnostic.Severity) {
        diagnostics.append(SCXMLDiagnostic(severity, message, at: location, kind: .document))
    }

    mutating func resolve(_ data: SCXMLData) -> SCXMLData {
        guard let source = data.source, data.content == nil, data.expression == nil,
            let text = read(source, at: data.location)
        else { return data }
        var resolved = data
        resolved.content = .text(text)
        resolved.source = nil
        return resolved
    }

    mutating func resolve(_ script: SCXMLScript) -> SCXMLScript {
        guard let source = script.source, script.text == nil,
            let text = read(source, at: script.location, severity: .error)
        else {
            return script
        }
        var resolved = script
        resolved.text = text
        return resolved
    }

    mutating func resolve(_ node: SCXMLNode) -> SCXMLNode {
        var node = node
        node.data = node.data.map { resolve($0) }
        node.children = node.children.map { resolve($0) }
        node.transitions = node.transitions.map { resolve($0) }
        node.onEntry = node.onEntry.map { SCXMLBlock(actions: resolve($0.actions), location: $0.location) }
        node.onExit = node.onExit.map { SCXMLBlock(actions: resolve($0.actions), location: $0.location) }
        if var initial = node.initialTransition {
            initial.actions = resolve(initial.actions)
            node.initialTransition = initial
        }
        node.invocations = node.invocations.map { invocation in
            var invocation = invocation
            invocation.finalize = resolve(invocation.finalize)
            return invocation
        }
        return node
    }

    mutating func resolve(_ transition: SCXMLTransition) -> SCXMLTransition {
        var transition = transition
        transition.actions = resolve(transition.actions)
        return transition
    }

    mutating func resolve(_ actions: [SCXMLAction]) -> [SCXMLAction] {
        actions.map { action in
            var action = action
            switch action.kind {
            case .script(let script):
                action.kind = .script(resolve(script))
            case .if(let branches):
                action.kind = .if(branches.map { SCXMLBranch(condition: $0.condition, actions: resolve($0.actions)) })
            case .foreach(let array, let item, let index, let body):
                action.kind = .foreach(array: array, item: item, index: index, actions: resolve(body))
            default:
                break
            }
            return action
        }
    }
}
