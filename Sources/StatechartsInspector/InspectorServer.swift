#if Inspector
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import Statecharts

/// The inspector: a web page on loopback that shows a machine's chart with its active states lit
/// up as steps happen, the events it takes now, the timeline of its steps with time travel and
/// the controls of its virtual clock; and the HTTP API and WebSocket the page uses.
///
/// Every request must carry the server's ``token``, as the query item `token` or as
/// `Authorization: Bearer TOKEN`, and come to `127.0.0.1`, `localhost` or `[::1]` at the server's
/// port from the page's own origin: another local user, a web page of another site, or a name
/// rebound to loopback cannot drive the machine. ``pageURL`` carries the token. A request for
/// anything but the routes below, spelled as they are, is refused; a `POST` must be
/// `application/json`. The page runs no inline script and inserts the chart as nodes, under a
/// Content Security Policy that allows the server's own script only. See the article "Running the
/// inspector and the HTTP processor safely".
///
/// | Request | What it does |
/// |---|---|
/// | `GET /` | The page. |
/// | `GET /inspector.js` | The page's script. |
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
    ///   - token: The secret requests carry: 16 to 256 letters, digits and `-._~`; a random one of
    ///     128 bits by default.
    ///   - timelineLimit: How many steps the timeline keeps; older ones are dropped.
    ///   - timelineBytes: How many bytes of JSON the timeline's steps may take together, 64 MiB by
    ///     default; older steps are dropped to stay within it (the newest is always kept).
    ///   - logger: Where the HTTP server writes what it does; nowhere by default.
    /// - Throws: ``InspectorError`` when the token is not one, or the server cannot listen on the
    ///   port.
    public static func start(
        _ target: some InspectorTarget, port: Int = 0, token: String? = nil, timelineLimit: Int = 1000,
        timelineBytes: Int = 64 << 20,
        logger: Logger = Logger(label: "statecharts.inspector", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws(InspectorError) -> InspectorServer {
        let token = token ?? Self.randomToken()
        guard InspectorRequestPolicy.isValidToken(token) else {
            throw InspectorError("a token is 16 to 256 letters, digits, '-', '.', '_' or '~'", status: 500)
        }
        let hub = InspectorHub(
            target: target, timelineLimit: max(1, timelineLimit), timelineBytes: max(1, timelineBytes))
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

        let policy = InspectorRequestPolicy(token: token, port: Locked<Int?>(nil))
        let router = Router()
        router.add(middleware: RequestGuard(policy: policy))
        let routes = InspectorRoutes(hub: hub, target: target, policy: policy)
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
        policy.port.withLock { $0 = boundPort }
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

/// Refuses every request that ``InspectorRequestPolicy`` does not let in, before any route.
struct RequestGuard<Context: RequestContext>: RouterMiddleware {
    let policy: InspectorRequestPolicy

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let refusal = policy.refusal(request.head) { return InspectorRoutes.failure(refusal) }
        return try await next(request, context)
    }
}

extension InspectorRequestPolicy {
    /// The error to answer a request with `head` with, or `nil` to let it in.
    func refusal(_ head: HTTPRequest) -> InspectorError? {
        refusal(method: head.method.rawValue, target: head.path ?? "") { name in
            // HTTP/1.1's Host is the request's authority here.
            if name == "host" { return head.authority }
            return HTTPField.Name(name).flatMap { head.headerFields[$0] }
        }
    }
}
#endif
