#if Store
#if PostgreSQL
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import StatechartsStore

/// A PostgreSQL connection that the network cuts in the middle of a reply: the store's query ends
/// in an error, never in a trap of postgres-nio that stops the process.
@Suite(.serialized, .enabled(if: StoreKind.postgresURL != nil, Comment(rawValue: postgresSkipMessage)))
struct CutConnectionTests {
    @Test("connections cut in the middle of a result end the query in an error, and the process goes on")
    func cutInTheMiddleOfAResult() async throws {
        let url = try #require(StoreKind.postgresURL.flatMap(URLComponents.init(string:)))
        let proxy = try await CuttingProxy(toHost: try #require(url.host), port: url.port ?? 5432)
        let logger = Logger(label: "statecharts.tests.cut") { _ in SwiftLogNoOpLogHandler() }
        let configuration = PostgresConnection.Configuration(
            host: "127.0.0.1", port: proxy.port, username: try #require(url.user), password: url.password,
            database: String(url.path.drop { $0 == "/" }), tls: .disable)
        // The trap needs the cut to fall while rows that arrived wait for the client to ask for
        // more: a moment of each read, so twelve replies are cut, each at another point.
        for round in 1...12 {
            let connection = try await PostgresConnection.connect(
                configuration: configuration, id: round, logger: logger)
            let connected = proxy.bytesFromServer
            // 2,000 rows of a kilobyte, one a millisecond: the reply comes in many reads over two
            // seconds or more.
            let query = Task {
                try await connection.collect(
                    "SELECT i, repeat('x', 1000), pg_sleep(0.001) FROM generate_series(1, 2000) AS i", logger: logger)
            }
            let cutAt = connected + round * 8_192
            let deadline = ContinuousClock.now + .seconds(20)
            while proxy.bytesFromServer < cutAt, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(1))
            }
            #expect(proxy.bytesFromServer >= cutAt, "round \(round): the reply never reached \(cutAt) bytes")
            await proxy.cut()
            let outcome = await query.result
            #expect(throws: PSQLError.self, "round \(round)") { try outcome.get() }
            // The failure becomes the store's typed error, as every one of its operations reports it.
            if case .failure(let error) = outcome {
                let failure = PostgresMachineStore.failure("reading rows", error)
                guard case .database(_, let operation, _) = failure else {
                    Issue.record("round \(round): not a database error: \(failure)")
                    continue
                }
                #expect(operation == "reading rows")
            }
            try? await connection.close()
        }
        await proxy.stop()
    }
}
#endif
#endif
