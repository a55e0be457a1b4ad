import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// The inspector: a web page on loopback that shows a machine's chart with its active states lit
/// up as steps happen, the events it takes now, the timeline of its steps with time travel and
/// the controls of its virtual clock; and the HTTP API and WebSocket the page uses.
///
/// Every request under `/api` must carry the server's ``token``, as the query item `token` or as
/// `Authorization: Bearer TOKEN`: another local user, or a web page of another site, cannot drive
/// the machine. ``pageURL`` carries it.
///
/// | Request | What it does |
/// |---|---|
/// | `GET /` | The page. |
/// | `GET /api/chart` | `{"name", "svg", "abilities"}`. |
/// | `GET /api/snapshot` | The configuration, data, pending timers, time and the events taken now (``InspectorSnapshot``). |
/// | `GET /api/timeline` | `{"steps": [InspectorStep]}`. |
/// | `POST /api/events` | `{"name": "play", "data": {...}}` sends an event; answers with the snapshot after it. |
/// | `POST /api/resume` | `{"step": 3}` resumes from step 3 of the timeline. |
/// | `POST /api/clock` | `{"advance": 5}` moves the virtual clock 5 s on; `{"realTime": true}` runs it with the wall clock. |
/// | `GET /api/updates` | A WebSocket: ``InspectorMessage``s, the timeline first, then each step. |
public final class InspectorServer: Sendable {
    /// The port the server listens on, on 127.0.0.1.
    public let port: Int
    /// The secret every API request carries.
    public let token: String
    /// The page's address, with the token: open it in a browser.
    public var pageURL: String { "http://127.0.0.1:\(port)/?token=\(token)" }

    let hub: InspectorHub
    private let server: Task<Void, any Error>
    private let feed: Task<Void, Never>

    private init(port: Int, token: String, hub: InspectorHub, server: Task<Void, any Error>, feed: Task<Void, Never>) {
        self.port = port
        self.token = token
        self.hub = hub
        self.server = server
        self.feed = feed
    }

    /// Starts serving the inspector of `target` on loopback.
    ///
    /// - Parameters:
    ///   - target: The machine.
    ///   - port: The port; 0 (the default) for one the system chooses.
    ///   - token: The secret API requests carry; a random one of 128 bits by default.
    ///   - timelineLimit: How many steps the timeline keeps; older ones are dropped.
    ///   - logger: Where the HTTP server writes what it does; nowhere by default.
    /// - Throws: ``InspectorError`` when the server cannot listen on the port.
    public static func start(
        _ target: some InspectorTarget, port: Int = 0, token: String? = nil, timelineLimit: Int = 1000,
        logger: Logger = Logger(label: "statecharts.inspector", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws(InspectorError) -> InspectorServer {
        let token = token ?? Self.randomToken()
        let hub = InspectorHub(target: target, timelineLimit: max(1, timelineLimit))
        let (steps, reporter) = AsyncStream.makeStream(of: InspectorStep.self)
        let first = await target.connect(report: { step in
            hub.noteReported()
            reporter.yield(step)
        })
        await hub.record(first)
        let feed = Task {
            for await step in steps {
                await hub.record(step)
                await hub.noteRecorded()
            }
        }

        let router = Router()
        router.add(middleware: TokenCheck(token: token))
        let routes = InspectorRoutes(hub: hub, target: target, token: token)
        routes.register(on: router)

        let (bound, boundContinuation) = AsyncStream<Int?>.makeStream()
        let application = Application(
            router: router, server: .http1WebSocketUpgrade(shouldUpgrade: { request, _, _ in routes.upgrade(request) }),
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                boundContinuation.yield(channel.localAddress?.port)
                boundContinuation.finish()
            }, logger: logger)
        let server = Task {
            defer { boundContinuation.finish() }
            try await application.run()
        }
        var boundPort: Int?
        for await value in bound {
            boundPort = value
            break
        }
        guard let boundPort else {
            server.cancel()
            feed.cancel()
            reporter.finish()
            await target.disconnect()
            throw InspectorError("the inspector cannot listen on 127.0.0.1:\(port)", status: 500)
        }
        return InspectorServer(port: boundPort, token: token, hub: hub, server: server, feed: feed)
    }

    /// Stops the server: the page's connection closes, and the machine is no longer reported.
    public func stop() async {
        await hub.stop()
        await hub.target.disconnect()
        feed.cancel()
        server.cancel()
        _ = await server.result
    }

    /// The timeline the page shows.
    public var timeline: [InspectorStep] {
        get async { await hub.timeline }
    }

    /// 128 random bits as 32 hexadecimal digits.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let value = generator.next() as UInt64
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }
}

/// Refuses every request under `/api` that does not carry the token.
struct TokenCheck<Context: RequestContext>: RouterMiddleware {
    let token: String

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.uri.path.hasPrefix("/api") else { return try await next(request, context) }
        guard Self.presents(token, request) else {
            return InspectorRoutes.failure(InspectorError("a missing or wrong token", status: 401))
        }
        return try await next(request, context)
    }

    /// Whether `request` carries `token` in its query or its `Authorization` header.
    static func presents(_ token: String, _ request: Request) -> Bool {
        presents(token, query: request.uri.query, authorization: request.headers[.authorization])
    }

    /// Whether a request whose query is `query` (the part after `?`) and whose `Authorization`
    /// header is `authorization` carries `token`.
    static func presents(_ token: String, query: String?, authorization: String?) -> Bool {
        if authorization == "Bearer \(token)" { return true }
        guard let query else { return false }
        return query.split(separator: "&").contains { item in
            let parts = item.split(separator: "=", maxSplits: 1)
            return parts.count == 2 && parts[0] == "token" && parts[1].removingPercentEncoding == token
        }
    }
}
