import StatechartTool

/// The `statechart` executable: the root command, run so that `--json` failures are JSON too.
@main
enum StatechartMain {
    static func main() async {
        await StatechartCommand.main(arguments: Array(CommandLine.arguments.dropFirst()))
    }
}
