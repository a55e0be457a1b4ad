import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The page, the HTTP API and the WebSocket of an ``InspectorServer``.
struct InspectorRoutes: Sendable {
    let hub: InspectorHub
    let target: any InspectorTarget
    let token: String

    /// The largest request body the API reads.
    static let bodyLimit = 1 << 20

    func register(on router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in Self.page() }
        router.get("/index.html") { _, _ in Self.page() }
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

    /// The WebSocket `/api/updates`, for a request that carries the token: the timeline, then each
    /// step, until the page goes away.
    ///
    /// The upgrade is decided by this closure rather than by a route of a WebSocket router: the
    /// router keeps the handler in its request context, which holds the context itself, a cycle
    /// that leaks the handler and all it captures (the hub, the machine) on every upgrade
    /// (hummingbird-websocket 2.8.1; the address sanitizer's leak check caught it).
    func upgrade(
        _ request: HTTPRequest
    ) -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        let path = request.path ?? ""
        guard path.split(separator: "?", maxSplits: 1).first == "/api/updates",
            TokenCheck<BasicRequestContext>.presents(
                token, query: path.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init),
                authorization: request.headerFields[.authorization])
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

    static func page() -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.xContentTypeOptions] = "nosniff"
        headers[.contentSecurityPolicy] =
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self' ws://127.0.0.1:* ws://localhost:*"
        return Response(
            status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: InspectorPage.html)))
    }
}
