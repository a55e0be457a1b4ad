import Foundation
import StatechartsSCXML

/// `statechart-generate INPUT OUTPUT`: what the build plugin StatechartsGenerator runs. It writes
/// the Swift of the document INPUT to OUTPUT (only when it changes), and prints problems as
/// `file:line:column: error: ...`, which the build shows at the document's lines. It depends on
/// the SCXML library only, so that a package that uses the plugin builds nothing else.
@main
enum StatechartGenerate {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count == 2, let input = arguments.first, let output = arguments.last else {
            FileHandle.standardError.write(Data("usage: statechart-generate INPUT.scxml OUTPUT.swift\n".utf8))
            exit(2)
        }
        do {
            let generated = try SwiftGenerator().generate(contentsOf: URL(fileURLWithPath: input))
            for warning in generated.warnings { report(warning.description) }
            try generated.write(toFile: output)
        } catch let error as SCXMLError {
            for diagnostic in error.diagnostics { report(diagnostic.description) }
            exit(1)
        } catch {
            report("\(output): error: cannot write the generated Swift: \(error.localizedDescription)")
            exit(1)
        }
    }

    static func report(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
