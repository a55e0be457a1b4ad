extension StateMachine: CustomStringConvertible {
    /// The configuration, such as `[on, dim]`, with the status when the machine is not running:
    /// `[off] (finished)`.
    public var description: String {
        let states = "[" + configuration.map { "\($0)" }.joined(separator: ", ") + "]"
        switch status {
        case .running: return states
        case .notStarted: return "\(states) (not started)"
        case .finished: return "\(states) (finished)"
        }
    }
}
