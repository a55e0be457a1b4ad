#if Store
import Foundation
import GRDB
import Statecharts

extension DurableMachines {
    /// Journals `event` for the machine `machine` in the app's own transaction `db`, on a
    /// ``SQLiteMachineStore`` made with ``SQLiteMachineStore/init(writer:)``: the event is
    /// acknowledged when the app's transaction commits, with the app's own rows, and a rollback
    /// leaves neither.
    ///
    /// ```swift
    /// try await database.write { db in
    ///     try db.execute(sql: "INSERT INTO shipments (id, address) VALUES (?, ?)", arguments: ["s-1", "Quay 4"])
    ///     try shipments.send(.ship, to: "s-1", id: "create-s-1", in: db)
    /// }
    /// ```
    ///
    /// Once the transaction commits, this object's workers are woken; workers of other processes
    /// find the event when they next look.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - machine: The machine's identifier; a new identifier creates the machine.
    ///   - id: The event's identifier, unique per machine (a new UUID when `nil`): a retry with
    ///     the same identifier is ``Admission/duplicate``.
    ///   - db: The app's transaction, on the database of the fleet's store.
    /// - Throws: ``StoreError/invalidConfiguration(_:)`` when the fleet's store is not SQLite or
    ///   `db` holds no store tables; ``StoreError/encoding(_:)`` when the event does not encode;
    ///   ``StoreError/database(store:operation:message:)`` when SQLite refuses.
    @discardableResult
    public func send(
        _ event: Event, to machine: String, id: String? = nil, in db: Database
    ) throws(StoreError)
        -> Admission
    {
        guard store is SQLiteMachineStore else {
            throw .invalidConfiguration("sending in the app's transaction needs a SQLiteMachineStore(writer:)")
        }
        let payload: String
        do {
            payload = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
        } catch {
            throw .encoding("\(error)")
        }
        let admissions: [Admission]
        do {
            guard try db.tableExists("statechart_journal") else {
                throw StoreError.invalidConfiguration(
                    "the transaction's database has no store tables: is it the database of the fleet's store?")
            }
            admissions = try SQLiteMachineStore.journal(
                db,
                [
                    IncomingEvent(
                        machine: machine, eventID: id ?? UUID().uuidString, payload: payload, acknowledgedAt: clock())
                ])
        } catch {
            throw SQLiteMachineStore.failure("journaling an event in the app's transaction", error)
        }
        let signal = signal
        db.afterNextTransaction(onCommit: { _ in signal.wake() })
        return admissions.first ?? .duplicate
    }
}
#endif
