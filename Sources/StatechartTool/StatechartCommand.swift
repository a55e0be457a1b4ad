import ArgumentParser

/// The `statechart` command: check, run and test statecharts written in SCXML.
public struct StatechartCommand: AsyncParsableCommand {
    /// The command's description and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "statechart",
        abstract: "Run, check, draw and test statecharts written in SCXML.",
        subcommands: [
            RunCommand.self, ReplCommand.self, CheckCommand.self, GraphCommand.self, TestCommand.self,
            DifferentialCommand.self,
        ])

    /// A command ready to parse.
    public init() {}
}
