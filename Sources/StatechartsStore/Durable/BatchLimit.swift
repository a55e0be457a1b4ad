#if Store
/// The number of machines a fleet's transaction claims (``DurableMachines/process()``), and the
/// transactions committed since it last changed: halved when the database fails a transaction,
/// doubled back after enough commit in a row.
struct BatchLimit: Sendable {
    /// The most it grows back to.
    let largest: Int
    /// How many machines the next transaction claims.
    var machines: Int
    /// Transactions committed in a row since it last changed.
    var commits = 0

    /// Transactions that must commit in a row before the limit doubles.
    static let commitsBeforeGrowing = 16

    init(largest: Int) {
        self.largest = largest
        machines = largest
    }

    /// After a transaction the database failed: half as many, at least one.
    mutating func failed() {
        machines = max(1, machines / 2)
        commits = 0
    }

    /// After a transaction that committed: twice as many after enough of them.
    mutating func committed() {
        guard machines < largest else { return }
        commits += 1
        if commits >= Self.commitsBeforeGrowing {
            machines = min(largest, machines * 2)
            commits = 0
        }
    }
}
#endif
