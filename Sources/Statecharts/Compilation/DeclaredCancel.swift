/// A cancel written as data, as the quick step reads it from its chart: the identifier, and the
/// owner that the timers of the chart's sends written as data with that identifier carry.
@usableFromInline
struct DeclaredCancel: Sendable {
    /// The identifier, for the delayed events sent by closures with it and for the runtime's
    /// ``MachineEffect/cancelSend(id:)``.
    @usableFromInline let id: String
    /// ``DeclaredIdentifier/owner(ofNumber:)`` of the identifier's number, or -1 when no send written as
    /// data has this identifier.
    @usableFromInline let owner: Int32

    init(id: String, owner: Int32) {
        self.id = id
        self.owner = owner
    }
}
