/// A type whose values are the events of a statechart: usually your own enum.
///
/// Transitions are chosen by an event's *kind*, never by comparing whole events, so that events may
/// carry payloads. An enum without associated values is its own kind and conforms with no code:
///
/// ```swift
/// enum PlayerEvent: StatechartEvent, CaseIterable {
///     case play, pause, stop
/// }
/// ```
///
/// An enum whose cases carry values names its kinds in a nested enum:
///
/// ```swift
/// enum GameEvent: StatechartEvent {
///     case start, chooseEpisode(Episode), finish(score: Int)
///
///     enum Kind: CaseIterable { case start, chooseEpisode, finish }
///     var kind: Kind {
///         switch self {
///         case .start: .start
///         case .chooseEpisode: .chooseEpisode
///         case .finish: .finish
///         }
///     }
/// }
/// ```
///
/// When `Kind` is a `CaseIterable` enum without associated values, a machine finds an event's
/// transitions with one table lookup: it never hashes the event or its name.
///
/// Every kind has a name, used for SCXML event matching (``On/init(named:to:type:guard:file:line:column:)``),
/// for diagnostics and for pictures: the raw value of a `String`-backed kind, else the case name.
/// Names may be dotted (`"error.network"`) so that a descriptor `"error"` matches them.
///
/// The protocol asks for no `Hashable` or `Sendable` conformance itself: charts, machines and
/// their generic code require `Kind: Hashable`, and a chart or machine is `Sendable` when its
/// events (and kinds) are. This keeps an event enum usable as written in a module whose default
/// isolation is the main actor (Xcode 26's default for apps), where its synthesized `Hashable`
/// conformance is isolated to the main actor: such a chart is used on the main actor, with
/// ``IsolatedStatechart`` or a bare ``StateMachine``. A ``StatechartActor`` runs on its own actor
/// and needs nonisolated conformances: declare the types `nonisolated` for it.
public protocol StatechartEvent {
    /// What selects transitions: an event's case without its payload. Charts require it to be
    /// `Hashable`.
    associatedtype Kind

    /// The kind of this event.
    var kind: Kind { get }

    /// Every kind, in a fixed order; the default is `Kind.allCases` when `Kind` is `CaseIterable`.
    ///
    /// Kinds missing here are still known to a chart when a transition names them.
    static var allKinds: [Kind] { get }

    /// The SCXML-style name of a kind, such as `"play"` or `"error.network"`.
    static func name(of kind: Kind) -> String
}

extension StatechartEvent where Kind == Self {
    /// An event without payload is its own kind.
    @inlinable
    public var kind: Self { self }
}

extension StatechartEvent {
    /// No kinds are known in advance unless `Kind` is `CaseIterable`.
    public static var allKinds: [Kind] { [] }

    /// The case name of the kind (its `description`).
    public static func name(of kind: Kind) -> String { String(describing: kind) }
}

extension StatechartEvent where Kind: CaseIterable {
    /// All cases of `Kind`, in declaration order.
    public static var allKinds: [Kind] { Array(Kind.allCases) }
}

extension StatechartEvent where Kind == String {
    /// The kind itself: an event whose kinds are strings (an SCXML event's name) is named by them.
    /// (`String(describing:)`, the default, gives the same text at about 400 instructions a call.)
    @inlinable
    public static func name(of kind: String) -> String { kind }
}

extension StatechartEvent where Kind: RawRepresentable, Kind.RawValue == String {
    /// The raw value of the kind.
    public static func name(of kind: Kind) -> String { kind.rawValue }
}

extension StatechartEvent {
    /// The SCXML-style name of this event.
    public var name: String { Self.name(of: kind) }
}
