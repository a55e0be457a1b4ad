import Foundation

/// Swift that ``SwiftGenerator`` wrote for a document.
public struct GeneratedSwift: Sendable, Hashable {
    /// The name of the namespace enum that holds the chart's types.
    public var typeName: String
    /// The source file: formatted, the same for the same document and options.
    public var source: String
    /// What the document does that the generated chart does differently or not at all, with
    /// where it is written (for example a `<send>` to another session, which a chart that runs
    /// alone answers with `error.communication`).
    public var warnings: [SCXMLDiagnostic]

    /// Generated Swift from its parts.
    public init(typeName: String, source: String, warnings: [SCXMLDiagnostic] = []) {
        self.typeName = typeName
        self.source = source
        self.warnings = warnings
    }
}

extension GeneratedSwift {
    /// Writes ``source`` to the file at `path`, unless the file holds it already, so that a build
    /// that runs the generator again compiles nothing again.
    ///
    /// - Returns: Whether the file was written.
    @discardableResult
    public func write(toFile path: String) throws -> Bool {
        let data = Data(source.utf8)
        if FileManager.default.contents(atPath: path) == data { return false }
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        return true
    }
}
