#if Store
/// What a crash test's check counts, machine by machine: the events lost or applied twice, the
/// machines that differ from their journal, the delayed events missed or fired twice, and the
/// reservations (activities) started, ended twice, left in flight or cancelled. Shared by the
/// typed chart's check and the document's.
struct CrashTally {
    var lost = 0
    var duplicated = 0
    var inconsistent = 0
    var missed = 0
    var firedTwice = 0
    var reservations = 0
    var activitiesLost = 0
    var activitiesDuplicated = 0
    var activitiesCancelled = 0

    /// What one machine says it did, against what its journal applied (`applied`, in order), what
    /// was acknowledged to it (`expected`) and the arms among those (`arms`).
    struct Machine {
        var received: [Int]
        var fired: [Int]
        var reservations: [Int]
        var reserved: [Int]
        var superseded: [Int]
    }

    /// Counts one machine.
    mutating func add(_ machine: Machine, applied: [Int], expected: [Int], arms: Set<Int>) {
        // The machine is its journal replayed: the same events in the same order.
        if applied != machine.received { inconsistent += 1 }
        let counts = Dictionary(machine.received.map { ($0, 1) }, uniquingKeysWith: +)
        duplicated += counts.values.filter { $0 > 1 }.count
        let inJournal = Set(applied)
        lost += expected.filter { counts[$0] == nil || !inJournal.contains($0) }.count
        let fired = Dictionary(machine.fired.map { ($0, 1) }, uniquingKeysWith: +)
        firedTwice += fired.values.filter { $0 > 1 }.count
        missed += arms.filter { fired[$0] == nil }.count
        // Every reservation started ends either with its outcome (once) or cancelled by the next;
        // one still in flight is in neither list: lost.
        reservations += machine.reservations.count
        activitiesCancelled += machine.superseded.count
        let reservedCounts = Dictionary(machine.reserved.map { ($0, 1) }, uniquingKeysWith: +)
        activitiesDuplicated += reservedCounts.values.filter { $0 > 1 }.count
        let ended = Set(machine.reserved).union(machine.superseded)
        activitiesLost += Set(machine.reservations).subtracting(ended).count
    }

    /// Whether nothing was lost, duplicated, missed or fired twice, and some reservation started.
    var isClean: Bool {
        lost == 0 && duplicated == 0 && inconsistent == 0 && missed == 0 && firedTwice == 0 && reservations > 0
            && activitiesLost == 0 && activitiesDuplicated == 0
    }
}
#endif
