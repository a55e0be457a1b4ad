/// Whether a transition whose targets lie inside its source state leaves that state.
///
/// An *external* transition exits and re-enters its source (running its exit and entry actions);
/// an *internal* one does not, when the source is compound and every target is a descendant of it.
/// Otherwise the two behave the same. This is SCXML's `type` attribute.
public enum TransitionType: String, Hashable, Sendable, Codable {
    /// Exit and re-enter the source state (the SCXML default).
    case external
    /// Stay in the source state when every target is one of its descendants.
    case `internal`
}

/// What a history state remembers of its parent when the parent is exited.
public enum HistoryType: String, Hashable, Sendable, Codable {
    /// The parent's active children.
    case shallow
    /// The parent's active atomic descendants, at any depth.
    case deep
}
