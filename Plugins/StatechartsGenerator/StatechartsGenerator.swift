import Foundation
import PackagePlugin

/// A build tool plugin: the Swift of every `.scxml` file of a target, generated at build time by
/// `statechart-generate` (the generator of `statechart generate`), each in a namespace enum named
/// after the document. Problems in a document are reported at its file, line and column.
@main
struct StatechartsGenerator: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "statechart-generate")
        return target.sourceFiles(withSuffix: "scxml").map { file in
            let name = file.url.deletingPathExtension().lastPathComponent
            let output = context.pluginWorkDirectoryURL.appending(path: "\(name).swift")
            return .buildCommand(
                displayName: "Generating Swift for \(file.url.lastPathComponent)",
                executable: tool.url,
                arguments: [file.url.path, output.path],
                inputFiles: [file.url],
                outputFiles: [output])
        }
    }
}
