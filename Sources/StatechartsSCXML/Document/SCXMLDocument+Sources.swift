import Foundation
import Statecharts

extension SCXMLDocument {
    /// The document with the files its `<data src>` and `<script src>` name read in, as inline
    /// content and script text, with a diagnostic for each file that cannot be read: an error for
    /// a script (SCXML says such a document must be rejected), a warning for data.
    ///
    /// A `src` is a path relative to the document's folder (`file:` in front is allowed). A
    /// document is untrusted, so it reads nothing outside its folder: an absolute path, a path
    /// out of the folder, a symbolic link that leads out of it (paths are compared once every link
    /// is resolved), a file larger than `SCXMLLimits.documentSize` and any other URL scheme are
    /// refused. An element whose file is not read
    /// keeps its `src`; for `<data>`, it raises `error.execution` when it is evaluated, as SCXML asks.
    func resolvingSources(
        maximumSize: Int = SCXMLLimits.default.documentSize
    ) -> (document: SCXMLDocument, diagnostics: [SCXMLDiagnostic]) {
        var resolver = SourceResolver(documentFile: location.file, maximumSize: maximumSize)
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
    /// The document's folder, every symbolic link resolved; `nil` when the document is no file.
    let folder: String?
    /// The most bytes a file may have.
    let maximumSize: Int
    /// What could not be read.
    var diagnostics: [SCXMLDiagnostic] = []

    init(documentFile: String, maximumSize: Int = SCXMLLimits.default.documentSize) {
        let file = URL(fileURLWithPath: documentFile)
        folder =
            FileManager.default.fileExists(atPath: file.path)
            ? Self.realPath(file.deletingLastPathComponent().path) : nil
        self.maximumSize = maximumSize
    }

    /// The path with every symbolic link, `.` and `..` resolved; `nil` when there is no such file.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
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
        let named = URL(fileURLWithPath: folder).appendingPathComponent(path).standardizedFileURL
        let inside = folder.hasSuffix("/") ? folder : folder + "/"
        guard named.path.hasPrefix(inside) else {
            report("'\(source)' is not read: it is outside the document's folder", at: location, severity)
            return nil
        }
        guard let file = Self.realPath(named.path) else {
            report("the file '\(source)' cannot be read: there is no such file", at: location, severity)
            return nil
        }
        guard file.hasPrefix(inside) else {
            report(
                "'\(source)' is not read: a symbolic link leads outside the document's folder (to \(file))",
                at: location, severity)
            return nil
        }
        // Read no more than one byte past the limit, however large the file is. (An empty file
        // reads as no data at all: it is empty text, not an error.)
        guard let handle = FileHandle(forReadingAtPath: file) else {
            report("the file '\(source)' cannot be read", at: location, severity)
            return nil
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumSize + 1) ?? Data()
        } catch {
            report("the file '\(source)' cannot be read", at: location, severity)
            return nil
        }
        guard data.count <= maximumSize else {
            report(
                "'\(source)' is not read: it has more than the limit documentSize of \(maximumSize) bytes",
                at: location, severity)
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
