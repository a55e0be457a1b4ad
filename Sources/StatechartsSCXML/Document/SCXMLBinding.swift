import Statecharts

/// When `<data>` elements are initialised: all at the start (early) or each state's when it is
/// first entered (late).
public enum SCXMLBinding: String, Sendable, Hashable {
    /// All data when the machine starts.
    case early
    /// A state's data when the state is first entered.
    case late
}
