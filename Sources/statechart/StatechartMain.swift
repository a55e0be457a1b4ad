#if Tools
import StatechartTool

/// The `statechart` executable: the root command, run so that `--json` failures are JSON too.
@main
enum StatechartMain {
    static func main() async {
        await StatechartCommand.main(arguments: Array(CommandLine.arguments.dropFirst()))
    }
}
#else
import Foundation

/// The `statechart` executable without the package trait Tools: it says how to build the tool.
@main
enum StatechartMain {
    static func main() {
        FileHandle.standardError.write(
            Data("statechart was built without the package trait Tools: build it with --enable-all-traits\n".utf8))
        exit(2)
    }
}
#endif
