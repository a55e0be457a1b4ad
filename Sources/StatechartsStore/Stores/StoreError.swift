#if Store
/// Why a store or a durable machine could not do what was asked.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database refused or failed: the store's name, what it was doing, and the database's
    /// message.
    case database(store: String, operation: String, message: String)
    /// The tables were written by a newer version of this library.
    case schemaTooNew(found: Int, supported: Int)
    /// An event could not be encoded as JSON.
    case encoding(String)
    /// A saved machine could not be read back: its snapshot or journal does not fit the chart.
    case unreadableMachine(machine: String, reason: String)
    /// The configuration is not usable.
    case invalidConfiguration(String)

    /// What went wrong, for people.
    public var description: String {
        switch self {
        case .database(let store, let operation, let message):
            "\(store): \(operation) failed: \(message)"
        case .schemaTooNew(let found, let supported):
            "the store's tables are at schema version \(found); this library knows versions up to \(supported)"
        case .encoding(let reason):
            "an event could not be encoded: \(reason)"
        case .unreadableMachine(let machine, let reason):
            "the saved machine '\(machine)' cannot be read: \(reason)"
        case .invalidConfiguration(let reason):
            "invalid configuration: \(reason)"
        }
    }
}
#endif
