extension StateMachine: CustomStringConvertible {
    /// The configuration, such as `[on, dim]`, with the status when the machine is not running:
    /// `[off] (finished)`.
    public var description: String { status.describe(configuration) }
}

extension MachineStatus {
    /// A configuration as a machine prints it: `[on, dim]`, with this status when the machine is
    /// not running, as in `[off] (finished)`.
    func describe<State>(_ configuration: [State]) -> String {
        let states = "[" + configuration.map { "\($0)" }.joined(separator: ", ") + "]"
        switch self {
        case .running: return states
        case .notStarted: return "\(states) (not started)"
        case .finished: return "\(states) (finished)"
        }
    }
}
