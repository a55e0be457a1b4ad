import ArgumentParser
import StatechartTool

/// The `statechart` executable: the root command, with `@main` so that ArgumentParser's
/// asynchronous entry point runs the commands.
@main
struct StatechartMain: AsyncParsableCommand {
    static let configuration = StatechartCommand.configuration
}
