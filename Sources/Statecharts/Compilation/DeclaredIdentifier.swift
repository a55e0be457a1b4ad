/// How a timer carries the identifier of a send written as data: the chart numbers each distinct
/// identifier of its sends written as data (``ChartStorage/declaredIdentifiers``) when it is
/// compiled, and the timer's ``PendingTimer/owner`` holds the number, below -1, in place of the
/// string.
@usableFromInline
enum DeclaredIdentifier {
    /// The owner of the timers of sends written as data whose identifier has the number `number`:
    /// -2 for the first, -3 for the next, and so on.
    @inlinable
    static func owner(ofNumber number: Int32) -> Int32 { -2 &- number }

    /// The number of the identifier of a timer whose owner is `owner` (-2 or less).
    @inlinable
    static func number(ofOwner owner: Int32) -> Int32 { -2 &- owner }
}
