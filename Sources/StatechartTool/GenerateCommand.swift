#if Tools
import ArgumentParser
import Foundation
import Statecharts
import StatechartsSCXML
import StatechartsTesting

/// `statechart generate FILE [--name TypeName] [--access public] [-o OUT]`: Swift types and a
/// compiled chart for a document.
public struct GenerateCommand: ParsableCommand {
    /// The command's description.
    public static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write Swift for an SCXML document: its states and events as enums, and its chart.",
        discussion: """
            The output is a namespace enum named after the document's name attribute (or its file) \
            holding the enums State and Event and the chart: for a document of the null data model \
            (In() conditions, string literals), chart() compiles it with the engine's own elements; \
            for a document whose expressions need a data model (ECMAScript), document holds it as \
            Swift values and chart(dataModels:) builds it for an SCXMLSession. Problems are printed \
            as file:line:column: error: ..., what the generated chart does differently as warnings. \
            The build plugin StatechartsGenerator runs the same generator on the .scxml files of a \
            target.
            """)

    /// The document.
    @Argument(help: "An SCXML document.")
    public var file: String

    /// The namespace enum's name.
    @Option(help: "The name of the generated namespace enum; by default the document's name in UpperCamelCase.")
    public var name: String?

    /// The access level.
    @Option(help: "internal (the default) or public.")
    public var access: SwiftGenerator.Access = .internal

    /// Where to write.
    @Option(name: .shortAndLong, help: "A file to write instead of standard output.")
    public var output: String?

    /// A command ready to parse.
    public init() {}

    /// Writes the Swift, or throws every problem of the document.
    public func run() throws {
        let generated: GeneratedSwift
        do {
            // The data models of this build check the expressions of a document that needs one.
            generated = try SwiftGenerator(typeName: name, access: access, dataModels: BuiltDataModels.all).generate(
                contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw CommandError(error)
        }
        for warning in generated.warnings {
            printToStandardError(warning.description)
        }
        guard let output else {
            print(generated.source, terminator: "")
            return
        }
        do {
            try generated.write(toFile: output)
        } catch {
            throw CommandError("cannot write \(output): \(error.localizedDescription)")
        }
    }
}

extension SwiftGenerator.Access: ExpressibleByArgument {}
#endif
