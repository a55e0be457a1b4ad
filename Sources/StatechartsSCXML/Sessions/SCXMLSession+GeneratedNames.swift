import Statecharts

extension SCXMLSession {
    /// Sends the event that a case of a generated `Event` enum names (its raw value), with `data`:
    /// the typed way to drive a document that `statechart generate` wrote as Swift values.
    ///
    /// - Returns: The step; its ``SCXMLStep/handled`` tells whether a transition handled the event.
    /// - Throws: What ``send(_:)`` throws.
    @discardableResult
    public mutating func send<Name: RawRepresentable>(
        _ event: Name, data: SCXMLValue? = nil
    ) throws(MachineError<String, SCXMLEvent>) -> SCXMLStep where Name.RawValue == String {
        try send(SCXMLEvent(event.rawValue, data: data))
    }

    /// Whether the state that a case of a generated `State` enum names (its raw value) is active
    /// in the top session.
    public func isActive<Name: RawRepresentable>(_ state: Name) -> Bool where Name.RawValue == String {
        machine.isActive(state.rawValue)
    }
}
