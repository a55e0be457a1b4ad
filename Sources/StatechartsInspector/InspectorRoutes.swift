#if Inspector
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The page, the HTTP API and the WebSocket of an ``InspectorServer``.
struct InspectorRoutes: Sendable {
    let hub: InspectorHub
    let target: any InspectorTarget
    let policy: InspectorRequestPolicy

    /// The largest request body the API reads.
    static let bodyLimit = 1 << 20

    func register(on router: Router<BasicRequestContext>) {
        let policy = self.policy
        router.get("/") { _, _ in Self.page(policy) }
        router.get("/index.html") { _, _ in Self.page(policy) }
        router.get("/inspector.js") { _, _ in Self.script(policy) }
        router.get("/api/chart") { _, _ in
            Self.json(ChartDescription(name: target.chartName, svg: target.svg, abilities: target.abilities))
        }
        router.get("/api/snapshot") { _, _ in Self.json(await target.snapshot()) }
        router.get("/api/timeline") { _, _ in Self.json(["steps": await hub.timeline]) }
        router.post("/api/events") { request, _ in
            do {
                let event = try await Self.decode(InspectorEvent.self, from: request)
                guard !event.name.isEmpty else { throw InspectorError("an event needs a name") }
                try await target.send(event)
                await hub.settled()
                return Self.json(await target.snapshot())
            } catch let error as InspectorError {
                await hub.settled()
                return Self.failure(error)
            }
        }
        router.post("/api/resume") { request, _ in
            do {
                let body = try await Self.decode(ResumeRequest.self, from: request)
                await hub.setRealTime(false)
                try await target.resume(from: body.step)
                await hub.settled()
                return Self.json(await target.snapshot())
            } catch let error as InspectorError {
                await hub.settled()
                return Self.failure(error)
            }
        }
        router.post("/api/clock") { request, _ in
            do {
                let body = try await Self.decode(ClockRequest.self, from: request)
                if let seconds = body.advance {
                    guard seconds.isFinite, seconds >= 0, seconds <= 366 * 86_400 else {
                        throw InspectorError("advance takes seconds from 0 to a year")
                    }
                    try await target.advance(by: seconds)
                }
                if let running = body.realTime {
                    guard !running || target.abilities.clock else { throw InspectorError.clockNotControlled }
                    await hub.setRealTime(running)
                }
                await hub.settled()
                return Self.json(await target.snapshot())
            } catch let error as InspectorError {
                await hub.settled()
                return Self.failure(error)
            }
        }
    }

    /// The WebSocket `/api/updates`, for a request that ``InspectorRequestPolicy`` lets in (the
    /// token, the host and the page's origin, as every request): the timeline, then each step, until
    /// the page goes away.
    ///
    /// The upgrade is decided by this closure rather than by a route of a WebSocket router: the
    /// router keeps the handler in its request context, which holds the context itself, a cycle
    /// that leaks the handler and all it captures (the hub, the machine) on every upgrade
    /// (hummingbird-websocket 2.8.1; the address sanitizer's leak check caught it).
    func upgrade(
        _ request: HTTPRequest
    ) -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        let path = request.path ?? ""
        guard path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first == "/api/updates",
            policy.refusal(request) == nil
        else { return .dontUpgrade }
        let hub = self.hub
        return .upgrade([:]) { inbound, outbound, _ in
            let (id, messages) = await hub.subscribe()
            let writer = Task {
                for await text in messages {
                    do {
                        try await outbound.write(.text(text))
                    } catch {
                        return
                    }
                }
                try? await outbound.close(.normalClosure, reason: nil)
            }
            // Read until the page goes away; what it writes is ignored.
            do {
                for try await _ in inbound {}
            } catch {}
            writer.cancel()
            await hub.unsubscribe(id)
        }
    }

    /// What `GET /api/chart` answers.
    struct ChartDescription: Encodable {
        var name: String
        var svg: String
        var abilities: InspectorAbilities
    }

    struct ResumeRequest: Decodable {
        var step: Int
    }

    struct ClockRequest: Decodable {
        var advance: Double?
        var realTime: Bool?
    }

    /// The request's JSON body.
    static func decode<Value: Decodable>(
        _ type: Value.Type, from request: Request
    ) async throws(InspectorError)
        -> Value
    {
        let buffer: ByteBuffer
        do {
            var request = request
            buffer = try await request.collectBody(upTo: bodyLimit)
        } catch {
            throw InspectorError("the request's body is larger than \(bodyLimit) bytes", status: 413)
        }
        do {
            return try JSONDecoder().decode(Value.self, from: Data(buffer.readableBytesView))
        } catch {
            throw InspectorError("the request's body is not the JSON expected: \(Self.describe(error))")
        }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "'\(key.stringValue)' is missing"
        case DecodingError.typeMismatch(let type, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "'\(path)' should be \(type)"
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        default: return "\(error)"
        }
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(
            status: status, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: InspectorHub.encode(value))))
    }

    static func failure(_ error: InspectorError) -> Response {
        json(["error": ["message": error.message]], status: HTTPResponse.Status(code: error.status))
    }

    /// The page, which loads its script with the token.
    static func page(_ policy: InspectorRequestPolicy) -> Response {
        asset(InspectorPage.html(token: policy.token), type: "text/html; charset=utf-8", policy)
    }

    /// The page's script.
    static func script(_ policy: InspectorRequestPolicy) -> Response {
        asset(InspectorPage.script, type: "text/javascript; charset=utf-8", policy)
    }

    /// The Content Security Policy of the page: its own script only (no inline script, no inline
    /// event handler, no `eval`), the chart's inline style, images only as `data:`, connections to
    /// the server itself only, and never in a frame.
    static func contentSecurityPolicy(port: Int) -> String {
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src data:; "
            + "connect-src 'self' ws://127.0.0.1:\(port) ws://localhost:\(port) ws://[::1]:\(port); "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    static func asset(_ text: String, type: String, _ policy: InspectorRequestPolicy) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        headers[.xContentTypeOptions] = "nosniff"
        headers[.contentSecurityPolicy] = contentSecurityPolicy(port: policy.port.withLock { $0 } ?? 0)
        if let frameOptions = HTTPField.Name("X-Frame-Options") { headers[frameOptions] = "DENY" }
        if let referrerPolicy = HTTPField.Name("Referrer-Policy") { headers[referrerPolicy] = "no-referrer" }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
#endif
