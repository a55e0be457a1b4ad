import Statecharts

// MARK: - The swipe-to-check gesture

/// The states of a to-do row's swipe gesture.
public enum SwipeState: String, Hashable, Sendable, CaseIterable {
    /// No finger on the row.
    case idle
    /// A finger drags the row; how far decides what letting go does.
    case dragging
    /// A short drag: letting go snaps back.
    case hand
    /// Past the first threshold: letting go checks or unchecks the item.
    case elbow
    /// Past the second threshold: letting go deletes the item.
    case shoulder
    /// Let go at the elbow: reads the item to know whether to check or uncheck it.
    case toggling
    /// The item is deleted; the row is gone.
    case deleted
}

/// What the gesture recognizer and the list report.
public enum SwipeEvent: StatechartEvent, Sendable, Equatable {
    /// A finger went down on the row.
    case began
    /// The finger moved: the row's horizontal offset, in points.
    case moved(offset: Double)
    /// The finger lifted.
    case ended
    /// The system cancelled the gesture (a scroll took over).
    case cancelled

    /// The kinds of events.
    public enum Kind: String, CaseIterable, Sendable { case began, moved, ended, cancelled }

    /// The event's kind.
    public var kind: Kind {
        switch self {
        case .began: .began
        case .moved: .moved
        case .ended: .ended
        case .cancelled: .cancelled
        }
    }
}

/// The row's item and the gesture's offset.
public struct SwipeContext: Sendable, Equatable {
    /// Whether the item is checked: the model the eventless transitions read.
    public var isChecked: Bool
    /// The row's offset now.
    public var offset = 0.0
    /// How far the elbow and the shoulder are.
    public var elbowAt = 80.0, shoulderAt = 200.0

    /// A row for an item checked or not.
    public init(isChecked: Bool) { self.isChecked = isChecked }
}

/// The swipe-to-check gesture: hand, elbow and shoulder zones of the drag, each with its own
/// meaning on release, and the check read from the model by an eventless transition.
///
/// The zones are substates of `dragging` that move by eventless transitions on the offset, so a
/// `moved` event only stores the offset and the chart works out the zone; letting go at the
/// elbow enters `toggling`, whose eventless transitions read the model to check or uncheck.
public func makeSwipeChart() throws -> Statechart<SwipeState, SwipeEvent, SwipeContext> {
    try Statechart<SwipeState, SwipeEvent, SwipeContext>("swipe-to-check", initial: .idle) {
        StateNode(.idle) {
            OnEntry { $0.context.offset = 0 }
            On(.began, to: .dragging)
        }
        StateNode(.dragging, initial: .hand) {
            On(.moved) { scope in
                if case .moved(let offset) = scope.event { scope.context.offset = max(0, offset) }
            }
            On(.cancelled, to: .idle)
            StateNode(.hand) {
                Always(to: .elbow, guard: { $0.context.offset >= $0.context.elbowAt })
                On(.ended, to: .idle)
            }
            StateNode(.elbow) {
                Always(to: .shoulder, guard: { $0.context.offset >= $0.context.shoulderAt })
                Always(to: .hand, guard: { $0.context.offset < $0.context.elbowAt })
                On(.ended, to: .toggling)
            }
            StateNode(.shoulder) {
                Always(to: .elbow, guard: { $0.context.offset < $0.context.shoulderAt })
                On(.ended, to: .deleted)
            }
        }
        StateNode(.toggling) {
            // The model, not the gesture, says which way the toggle goes.
            Always(to: .idle, guard: { !$0.context.isChecked }) { $0.context.isChecked = true }
            Always(to: .idle) { $0.context.isChecked = false }
        }
        Final(.deleted)
    }
}
