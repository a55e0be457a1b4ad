#if Inspector
/// A message of the inspector's WebSocket (`/api/updates`), as JSON.
///
/// The first is `{"type": "timeline", "steps": [...], "realTime": false}`, with the whole
/// timeline; then `{"type": "step", "step": {...}}` for each step (a step with the index of the
/// newest one replaces it: the clock moved on, nothing else happened); `timeline` again when the
/// machine resumed from an earlier step; `{"type": "clock", "realTime": true}` when the clock
/// starts or stops running in real time.
public struct InspectorMessage: Sendable, Hashable, Codable {
    /// `timeline`, `step` or `clock`.
    public var type: String
    /// The whole timeline, for `timeline`.
    public var steps: [InspectorStep]?
    /// The new step, for `step`.
    public var step: InspectorStep?
    /// Whether the clock runs in real time, for `timeline` and `clock`.
    public var realTime: Bool?

    /// A message.
    public init(type: String, steps: [InspectorStep]? = nil, step: InspectorStep? = nil, realTime: Bool? = nil) {
        self.type = type
        self.steps = steps
        self.step = step
        self.realTime = realTime
    }
}
#endif
