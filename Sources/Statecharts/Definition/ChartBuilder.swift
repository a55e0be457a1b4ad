/// Builds the contents of a chart or of a state from a list of elements.
///
/// Each kind of element has its own `buildExpression`, rather than one generic overload, so that
/// the compiler checks large charts quickly.
@resultBuilder
public enum ChartBuilder<State: Hashable, Event: StatechartEvent, Context> where Event.Kind: Hashable {
    /// What the builder collects.
    public typealias Element = ChartElement<State, Event, Context>

    /// Adds a ``StateNode`` to the block.
    public static func buildExpression(_ element: StateNode<State, Event, Context>) -> [Element] { [element.element] }
    /// Adds a ``Parallel`` to the block.
    public static func buildExpression(_ element: Parallel<State, Event, Context>) -> [Element] { [element.element] }
    /// Adds a ``Final`` to the block.
    public static func buildExpression(_ element: Final<State, Event, Context>) -> [Element] { [element.element] }
    /// Adds a ``History`` to the block.
    public static func buildExpression(_ element: History<State, Event, Context>) -> [Element] { [element.element] }
    /// Adds a ``Initial`` to the block.
    public static func buildExpression(_ element: Initial<State, Event, Context>) -> [Element] { [element.element] }
    /// Adds a ``On`` to the block.
    public static func buildExpression(_ element: On<State, Event, Context>) -> [Element] { [element.element] }
    /// Adds a ``Always`` to the block.
    public static func buildExpression(_ element: Always<State, Event, Context>) -> [Element] { [element.element] }
    /// Adds a ``After`` to the block.
    public static func buildExpression(_ element: After<State, Event, Context>) -> [Element] { [element.element] }
    /// Adds a ``OnDone`` to the block.
    public static func buildExpression(_ element: OnDone<State, Event, Context>) -> [Element] { [element.element] }
    /// Adds a ``OnEntry`` to the block.
    public static func buildExpression(_ element: OnEntry<State, Event, Context>) -> [Element] { [element.element] }
    /// Adds a ``OnExit`` to the block.
    public static func buildExpression(_ element: OnExit<State, Event, Context>) -> [Element] { [element.element] }
    /// Adds a ``StateData`` to the block.
    public static func buildExpression(_ element: StateData<State, Event, Context>) -> [Element] { [element.element] }
    /// Adds a ``DoneData`` to the block.
    public static func buildExpression(_ element: DoneData<State, Event, Context>) -> [Element] { [element.element] }
    /// Adds an ``Invoke`` to the block.
    public static func buildExpression(_ element: Invoke<State, Event, Context>) -> [Element] { [element.element] }
    /// An element made in code.
    public static func buildExpression(_ element: Element) -> [Element] { [element] }
    /// Elements made in code, such as the result of a function that returns several.
    public static func buildExpression(_ elements: [Element]) -> [Element] { elements }

    /// The first statement of a block.
    public static func buildPartialBlock(first: [Element]) -> [Element] { first }
    /// A further statement of a block.
    public static func buildPartialBlock(accumulated: [Element], next: [Element]) -> [Element] { accumulated + next }
    /// An empty block.
    public static func buildBlock() -> [Element] { [] }
    /// An `if` without `else`.
    public static func buildOptional(_ elements: [Element]?) -> [Element] { elements ?? [] }
    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first elements: [Element]) -> [Element] { elements }
    /// The second branch of an `if`/`else` or `switch`.
    public static func buildEither(second elements: [Element]) -> [Element] { elements }
    /// A `for` loop, such as one state per level of a game.
    public static func buildArray(_ groups: [[Element]]) -> [Element] { groups.flatMap { $0 } }
    /// An `if #available` block.
    public static func buildLimitedAvailability(_ elements: [Element]) -> [Element] { elements }
}
