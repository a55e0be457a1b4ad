/// Why a machine could not be archived, or an archive could not be restored into a machine of a
/// chart. A restore that fails creates no machine: nothing is half-restored.
public enum MachineArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The archive was written in a format this version of the library does not read.
    case unsupportedVersion(found: Int, supported: Int)
    /// The archive names a state the chart does not have.
    case unknownState(String)
    /// The archived states are not a configuration the chart can be in.
    case illegalConfiguration(String)
    /// A history record is for a state that is not a history state of the chart, or records
    /// states its parent cannot restore.
    case illegalHistory(state: String, reason: String)
    /// A pending timeout is for a state that is not active or has no such timeout in the chart.
    case unknownTimeout(state: String, delay: Duration)
    /// A pending delayed event has a name the chart does not know.
    case unknownEvent(String)
    /// The data of an active state is missing, is for a state that has none, or cannot be read
    /// back as the state's type.
    case stateData(state: String, reason: String)
    /// Archiving: an active state holds data of a type that is not `Codable`.
    case stateDataNotCodable(state: String, type: String)
    /// A number of the archive is out of the range it can have: a negative time, a deadline before
    /// the machine's start, an index or identifier at the end of its type. Every number read from
    /// an archive is checked before any arithmetic is done with it.
    case illegalNumber(field: String, reason: String)

    /// One line saying what is wrong.
    public var description: String {
        switch self {
        case .unsupportedVersion(let found, let supported):
            "the archive has format version \(found); this library reads version \(supported)"
        case .unknownState(let state): "the archive names the state '\(state)', which the chart does not have"
        case .illegalConfiguration(let reason): "the archived configuration is not legal in this chart: \(reason)"
        case .illegalHistory(let state, let reason): "the history of '\(state)' cannot be restored: \(reason)"
        case .unknownTimeout(let state, let delay):
            "the archive has a pending timeout of \(delay) for '\(state)', which the chart does not have there"
        case .unknownEvent(let name): "the archive has a pending event '\(name)', which the chart does not know"
        case .stateData(let state, let reason): "the data of '\(state)' cannot be restored: \(reason)"
        case .stateDataNotCodable(let state, let type):
            "the state '\(state)' holds data of type \(type), which is not Codable, so the machine cannot be archived"
        case .illegalNumber(let field, let reason): "the archive's \(field) cannot be restored: \(reason)"
        }
    }
}
