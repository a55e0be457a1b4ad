#if Inspector
import AsyncHTTPClient
import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import Statecharts
import StatechartsInspector

/// Talks to an inspector over loopback as the page does: HTTP with the token, and the WebSocket.
struct InspectorClient: Sendable {
    /// `http://127.0.0.1:PORT`.
    let base: String
    let token: String

    init(server: InspectorServer) {
        base = "http://127.0.0.1:\(server.port)"
        token = server.token
    }

    /// From the address `statechart inspect` prints: `http://127.0.0.1:PORT/?token=TOKEN`.
    init?(pageURL: String) {
        guard let components = URLComponents(string: pageURL), let port = components.port,
            let token = components.queryItems?.first(where: { $0.name == "token" })?.value
        else { return nil }
        base = "http://127.0.0.1:\(port)"
        self.token = token
    }

    enum Method { case GET, POST }

    struct Reply: Sendable {
        var status: Int
        var body: String
        var contentType: String?

        func decoded<Value: Decodable>(_ type: Value.Type) throws -> Value {
            try JSONDecoder().decode(type, from: Data(body.utf8))
        }

        /// The message of `{"error": {"message"}}`.
        var errorMessage: String? {
            struct Failure: Decodable {
                struct Detail: Decodable { var message: String }
                var error: Detail
            }
            return try? decoded(Failure.self).error.message
        }
    }

    /// A request, with the token in the header unless `withToken` is false.
    func request(
        _ method: Method, _ path: String, json: String? = nil, withToken: Bool = true
    ) async throws
        -> Reply
    {
        var request = HTTPClientRequest(url: base + path)
        request.method = method == .GET ? .GET : .POST
        if withToken { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(Array(json.utf8))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 22)
        return Reply(
            status: Int(response.status.code), body: String(buffer: body),
            contentType: response.headers.first(name: "Content-Type"))
    }

    func snapshot() async throws -> InspectorSnapshot {
        try await request(.GET, "/api/snapshot").decoded(InspectorSnapshot.self)
    }

    func send(_ name: String, data: String? = nil) async throws -> Reply {
        try await request(
            .POST, "/api/events",
            json: data.map { "{\"name\": \"\(name)\", \"data\": \($0)}" } ?? "{\"name\": \"\(name)\"}")
    }

    /// Connects to the WebSocket, runs `action` once the first message (the timeline) has come,
    /// and returns the messages received until `done` holds of them; at most 10 s.
    func watch(
        query: String? = nil, then action: @escaping @Sendable () async throws -> Void = {},
        until done: @escaping @Sendable ([InspectorMessage]) -> Bool
    ) async throws -> [InspectorMessage] {
        let received = Received()
        let url = "ws://127.0.0.1:\(base.split(separator: ":").last ?? "")/api/updates?" + (query ?? "token=\(token)")
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                let client = WebSocketClient(
                    url: url, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
                ) { inbound, _, _ in
                    var acted = false
                    for try await message in inbound.messages(maxSize: 1 << 22) {
                        guard case .text(let text) = message else { continue }
                        let decoded = try JSONDecoder().decode(InspectorMessage.self, from: Data(text.utf8))
                        let all = received.messages.withLock { messages in
                            messages.append(decoded)
                            return messages
                        }
                        if !acted {
                            acted = true
                            try await action()
                        }
                        if done(all) { return }
                    }
                }
                try await client.run()
            }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                throw TimedOut()
            }
            try await group.next()
            group.cancelAll()
        }
        return received.messages.withLock { $0 }
    }

    final class Received: Sendable {
        let messages = Locked<[InspectorMessage]>([])
    }

    struct TimedOut: Error {}
}
#endif
