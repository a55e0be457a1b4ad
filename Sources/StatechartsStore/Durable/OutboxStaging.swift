#if Store
import Foundation
import Statecharts

/// Turns the effects of a durable machine's steps into what the step's transaction writes: outbox
/// entries, events for other machines of the fleet, and cancelled delayed sends.
///
/// Every effect of a step gets the key (machine, the step's journal sequence, its place among the
/// step's effects), whether or not it is kept, so that a key never depends on what the fleet
/// delivers.
struct OutboxStaging<State, Event, Context>
where
    State: Hashable & Codable & Sendable, Event: StatechartEvent & Codable & Sendable,
    Event.Kind: Hashable & Sendable, Context: Codable & Sendable
{
    /// The machine whose steps these are.
    let machine: String
    /// The worker's time, in nanoseconds since 1970: effects are due from then, delayed sends
    /// after their delay.
    let now: Int64
    /// Whether the fleet delivers effects that leave it; without a handler only sends to other
    /// machines of the fleet are kept.
    let keepsEffects: Bool
    /// Whether an invocation runs as an activity of the fleet's workers: a registered activity, or
    /// an `Invoke` with work of its own.
    let runsAsActivity: (InvocationStart<State, Event, Context>) -> Bool
    /// The name an invocation's activity is registered under.
    let activityName: (InvocationStart<State, Event, Context>) -> String?
    /// The outbox entries, in the order the steps asked for them.
    private(set) var entries: [OutboxEntry] = []
    /// An effect as a value, with its key and its JSON.
    typealias StagedEffect = (key: EffectKey, payload: String, value: DurableEffect<State, Event, Context>)

    /// The effects of ``entries`` as values: the worker that delivers them in this process need
    /// not decode them (``DecodedValueCache``).
    private(set) var values: [StagedEffect] = []
    /// Events for machines of the fleet, journaled in the same transaction.
    private(set) var sends: [IncomingEvent] = []
    /// Identifiers of delayed sends cancelled, whose entries committed before are removed.
    private(set) var cancelled: [String] = []
    /// Invocations whose state was exited (their numbers, as text): their activities committed
    /// before are removed, and a worker running one is told.
    private(set) var cancelledActivities: [String] = []
    /// Effects that could not be kept (their values do not encode), for the fleet's `onError`.
    private(set) var problems: [String] = []
    /// Made at the first effect to encode: most steps of most machines have none.
    private var encoder: JSONEncoder?
    /// When set, an entry due at once that a worker of this process delivers (not an activity,
    /// not a delayed send to the fleet) is written already claimed: its first attempt counted,
    /// and due again at the end of the lease this gives its kind (in nanoseconds), when another
    /// worker may take it up if this one died. ``DurableMachines`` hands such entries to its own
    /// delivery loop, which need not claim them.
    var lease: ((String) -> Int64)?

    init(
        machine: String, now: Int64, keepsEffects: Bool,
        runsAsActivity: @escaping (InvocationStart<State, Event, Context>) -> Bool,
        activityName: @escaping (InvocationStart<State, Event, Context>) -> String? = { $0.name }
    ) {
        self.activityName = activityName
        self.machine = machine
        self.now = now
        self.keepsEffects = keepsEffects
        self.runsAsActivity = runsAsActivity
    }

    /// The machine of the fleet that `outgoing` goes to, through SCXML's own event processor (or
    /// none): a plain target, as a member of a live system is addressed, or `#_scxml_ID`, SCXML's
    /// address of session `ID` (a document's send to its own external queue). `nil` for targets
    /// such as `#_parent`, and for other processors: those leave the fleet.
    static func fleetMachine(_ outgoing: OutgoingEvent<Event>) -> String? {
        if let type = outgoing.type, !OutgoingEvent<Event>.isSCXMLProcessor(type) { return nil }
        let target = outgoing.target
        if target.hasPrefix(Self.sessionPrefix) {
            let machine = target.dropFirst(Self.sessionPrefix.count)
            return machine.isEmpty ? nil : String(machine)
        }
        return target.isEmpty || target.utf8.first == UInt8(ascii: "#") ? nil : target
    }

    /// The outbox kind of a delayed send to another machine of the fleet.
    static var fleetSendKind: String { "fleetSend" }

    /// SCXML's address of a session: `#_scxml_` and its identifier.
    static var sessionPrefix: String { "#_scxml_" }

    /// Stages the effects of the step applied as journal entry `sequence`.
    mutating func stage(_ effects: [MachineEffect<State, Event, Context>], sequence: Int64) {
        for (index, effect) in effects.enumerated() {
            let key = EffectKey(machine: machine, sequence: sequence, index: index)
            switch effect {
            case .send(let outgoing):
                if let target = Self.fleetMachine(outgoing) {
                    let durable = DurableEffect<State, Event, Context>.send(
                        event: outgoing.event, target: target, type: outgoing.type, id: outgoing.id)
                    if outgoing.delay > .zero {
                        keep(durable, key: key, kind: Self.fleetSendKind, sendID: outgoing.id, delay: outgoing.delay)
                    } else if let payload = encoded(
                        key, { String(decoding: try $0.encode(outgoing.event), as: UTF8.self) })
                    {
                        sends.append(
                            IncomingEvent(
                                machine: target, eventID: key.description, payload: payload,
                                acknowledgedAt: now))
                    }
                } else if keepsEffects {
                    keep(
                        .send(event: outgoing.event, target: outgoing.target, type: outgoing.type, id: outgoing.id),
                        key: key, kind: EffectKind.send.rawValue, sendID: outgoing.id, delay: outgoing.delay)
                }
            case .cancelSend(let id):
                entries.removeAll { $0.sendID == id && $0.kind != OutboxEntry.activityKind }
                cancelled.append(id)
            case .log(let record):
                if keepsEffects {
                    keep(.log(label: record.label, message: record.message), key: key, kind: EffectKind.log.rawValue)
                }
            case .startInvocation(let start):
                if runsAsActivity(start) {
                    keep(
                        .activity(
                            id: start.id, name: activityName(start), state: start.state, context: start.context,
                            definition: start.definition),
                        key: key, kind: OutboxEntry.activityKind, sendID: String(start.id.rawValue))
                } else if keepsEffects {
                    keep(
                        .startInvocation(id: start.id, name: start.name, state: start.state, context: start.context),
                        key: key, kind: EffectKind.startInvocation.rawValue)
                }
            case .cancelInvocation(let id):
                let invocation = String(id.rawValue)
                let staged = entries.count
                entries.removeAll { $0.kind == OutboxEntry.activityKind && $0.sendID == invocation }
                // An activity staged in this transaction never reaches the store; one committed
                // before is removed with the step, and a worker running it is told.
                if entries.count == staged { cancelledActivities.append(invocation) }
                if keepsEffects { keep(.cancelInvocation(id), key: key, kind: EffectKind.cancelInvocation.rawValue) }
            }
        }
    }

    private mutating func keep(
        _ effect: DurableEffect<State, Event, Context>, key: EffectKey, kind: String, sendID: String? = nil,
        delay: Duration = .zero
    ) {
        guard let payload = encoded(key, { encoder in try effect.payload(encoder) }) else { return }
        values.append((key, payload, effect))
        var entry = OutboxEntry(
            key: key, kind: kind, sendID: sendID, payload: payload, dueAt: now &+ max(0, delay.nanosecondsSinceZero))
        if let lease, delay <= .zero, kind != OutboxEntry.activityKind, kind != Self.fleetSendKind {
            entry.attempts = 1
            entry.dueAt = now &+ max(0, lease(kind))
        }
        entries.append(entry)
    }

    /// What `write` makes of the effect `key` with the staging's encoder, or `nil` (and a problem
    /// for the fleet's `onError`) when it throws.
    private mutating func encoded(_ key: EffectKey, _ write: (JSONEncoder) throws -> String) -> String? {
        let encoder = self.encoder ?? JSONEncoder()
        self.encoder = encoder
        do {
            return try write(encoder)
        } catch {
            problems.append("the effect \(key) cannot be encoded, and is not kept: \(error)")
            return nil
        }
    }
}
#endif
