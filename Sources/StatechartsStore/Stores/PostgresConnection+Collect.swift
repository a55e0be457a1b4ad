#if Store
#if PostgreSQL
import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs `query` and returns all of its rows, read on the connection's event loop.
    ///
    /// ``PostgresMachineStore`` runs every statement through here, and never through the async
    /// `query(_:logger:)` and its row sequence. That sequence asks for more rows from the task that
    /// iterates it. So between two reads of a result that spans several, the connection waits for
    /// that task. postgres-nio 1.33 then stops the whole process with a precondition ("How can we
    /// receive a body part, after a channelReadComplete, but no read has been forwarded yet") when
    /// the connection closes during that wait. A connection cut by the network or by a restarted
    /// server does that at random: `Scripts/durability.sh`'s proxy that cuts connections found it.
    /// Rows collected on the event loop are asked for as soon as they arrive, so a cut connection
    /// ends in an error that the store reports and retries.
    @discardableResult
    func collect(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        let result: EventLoopFuture<PostgresQueryResult> = self.query(query, logger: logger)
        return try await result.get().rows
    }
}
#endif
#endif
