/// What a cancel by a string identifier finds in a ``TimerQueue`` before it asks the chart for
/// the identifier's number (``TimerQueue/cancelMatch(ofString:)``).
@usableFromInline
enum CancelMatch {
    /// No delayed event that the cancel could remove.
    case nothing
    /// Delayed events sent with the identifier as a string, and no send written as data.
    case sentWithString
    /// A send written as data, which the cancel removes when its identifier is the one.
    case sentAsData
}
