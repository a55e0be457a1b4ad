import Clocks
import Foundation
import Statecharts

/// A watchdog: waiting arms a five-second timeout.
enum Watch: Hashable, Sendable, Codable { case idle, waiting, expired }
enum Poke: StatechartEvent, CaseIterable, Codable { case wait, poke, ping }

func watchChart() throws -> Statechart<Watch, Poke, Int> {
    try Statechart<Watch, Poke, Int>(initial: .idle) {
        StateNode(.idle) {
            On(.wait, to: .waiting)
            On(.ping) { $0.context += 1 }
        }
        StateNode(.waiting) {
            After(.seconds(5), to: .expired)
            On(.poke, to: .idle)
        }
        StateNode(.expired)
    }
}

/// A loader whose `loading` state runs `work`.
enum Loader: Hashable, Sendable, Codable { case idle, loading, ready, failed }
enum LoadEvent: StatechartEvent, Codable {
    case load, abandon, loaded(Int), failed

    enum Kind: CaseIterable, Sendable { case load, abandon, loaded, failed }
    var kind: Kind {
        switch self {
        case .load: .load
        case .abandon: .abandon
        case .loaded: .loaded
        case .failed: .failed
        }
    }
}

func loaderChart(
    _ work: @escaping @Sendable (Int) async throws -> LoadEvent?,
    onError: (@Sendable (any Error) -> LoadEvent?)? = nil
) throws -> Statechart<Loader, LoadEvent, Int> {
    try Statechart<Loader, LoadEvent, Int>(initial: .idle) {
        StateNode(.idle) { On(.load, to: .loading) }
        StateNode(.loading) {
            Invoke("fetch", work, onError: onError)
            On(.loaded, to: .ready) { scope in
                if case .loaded(let value) = scope.event { scope.context = value }
            }
            On(.failed, to: .failed)
            On(.abandon, to: .idle)
        }
        StateNode(.ready) { On(.load, to: .loading) }
        StateNode(.failed)
    }
}

/// A value shared between tasks, behind an `NSLock` (which the thread sanitizer understands).
final class Shared<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// Collects what an inspection hook reports.
final class InspectionLog<State: Hashable & Sendable, Event: StatechartEvent & Sendable>: Sendable
where Event.Kind: Hashable {
    private let entries = Shared<[MachineInspection<State, Event>]>([])

    var hook: @Sendable (MachineInspection<State, Event>) -> Void {
        { [self] entry in entries.withLock { $0.append(entry) } }
    }

    var all: [MachineInspection<State, Event>] { entries.withLock { $0 } }

    /// The names of the processed events, in order.
    var processed: [String] {
        all.compactMap { if case .willProcess(let event) = $0 { event.name } else { nil } }
    }
}

/// A flag set from any task.
final class Flag: Sendable {
    private let value = Shared(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

extension StatechartActor {
    /// Waits until a snapshot satisfies `predicate` and returns it.
    func waitUntil(
        _ predicate: @Sendable (MachineSnapshot<State, Context>) -> Bool
    ) async -> MachineSnapshot<State, Context>? {
        for await snapshot in snapshots() where predicate(snapshot) { return snapshot }
        return nil
    }
}

/// Whether `condition` holds within five seconds of real time, asked every millisecond on the
/// caller's actor.
func eventually(isolation: isolated (any Actor)? = #isolation, _ condition: () async -> Bool) async -> Bool {
    for _ in 0..<5000 {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return await condition()
}
