#if HTTP
import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import Statecharts
import StatechartsSCXML

/// SCXML's Basic HTTP Event I/O Processor (SCXML 1.0, Appendix D.2), for real: an HTTP server on
/// a socket receives events for the sessions opened at it, and an HTTP client sends the events
/// documents address to it.
///
/// Give it to a session to let its documents use it:
///
/// ```swift
/// let http = try await BasicHTTPEventProcessor.start()
/// var session = SCXMLSession(chart: chart, options: .init(eventProcessors: [http]))
/// try session.start()
/// try await session.settle()
/// await http.shutdown()
/// ```
///
/// It is also a `LiveEventProcessor`: given to a `StatechartSystem`, it takes the sends of the live
/// typed machines of the system (``deliver(_:)``).
///
/// A session's location, which `_ioprocessors['basichttp']['location']` gives its document, is
/// `http://HOST:PORT/scxml/SESSIONID`. A POST there becomes an external event of that session: its
/// name is the parameter `_scxmleventname`, or `HTTP.POST` without one; its data the other form
/// parameters, or the body as text when the body is not a form; `_event.raw` the whole request as
/// received. A `<send>` through the processor POSTs its event name as `_scxmleventname` and its
/// `namelist` and `<param>` values as a form, or its `<content>` as the body, percent-encoded; a
/// request that fails or is refused gives the sending session `error.communication`.
///
/// Documents are untrusted input, so the processor is off unless given to a session, listens on
/// loopback by default, and sends only to the hosts of ``Limits/allowedHosts`` (loopback by
/// default): a document cannot make the process reach a host it was not allowed to. The client
/// follows no redirect: a `3xx` answer, even from an allowed host, is a failed send
/// (`error.communication`), so that a host on the list cannot pass a send on to one that is not.
/// Events that arrive are untrusted too: each is processed as a cascade of its own, with the
/// session's limits whole (`SCXMLSession.receiveEvents()`), and once
/// ``Limits/maximumWaitingArrivals`` wait, more are refused with 503.
public final class BasicHTTPEventProcessor: SCXMLEventProcessor {
    /// The processor's URI, the `type` that names it.
    public static let uri = "http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor"

    /// The processor's URI and its short name `basichttp`.
    public let types = [BasicHTTPEventProcessor.uri, "basichttp"]
    /// Where the server listens: `http://HOST:PORT`.
    public let baseURL: String
    /// The limits it works within.
    public let limits: Limits
    let inbox: Inbox
    let client: HTTPClient
    let server: Task<Void, any Error>

    /// What the processor accepts and sends.
    public struct Limits: Sendable {
        /// The largest request body the server reads.
        public var maximumBodySize: Int
        /// How many events that arrived may wait to be taken; more are refused with 503.
        public var maximumWaitingArrivals: Int
        /// How many sends may be under way at once; more fail with `error.communication`.
        public var maximumSendsInFlight: Int
        /// How long one send may take.
        public var sendTimeout: Duration
        /// The hosts sends may go to.
        public var allowedHosts: Set<String>

        /// The default limits: 64 KiB bodies, 10,000 waiting events, 256 sends under way, 5 seconds
        /// a send, loopback hosts only.
        public init(
            maximumBodySize: Int = 64 * 1024, maximumWaitingArrivals: Int = 10_000, maximumSendsInFlight: Int = 256,
            sendTimeout: Duration = .seconds(5), allowedHosts: Set<String> = ["127.0.0.1", "localhost", "::1", "[::1]"]
        ) {
            self.maximumBodySize = maximumBodySize
            self.maximumWaitingArrivals = maximumWaitingArrivals
            self.maximumSendsInFlight = maximumSendsInFlight
            self.sendTimeout = sendTimeout
            self.allowedHosts = allowedHosts
        }
    }

    /// Why the processor could not start.
    public struct StartError: Error, Sendable, CustomStringConvertible {
        /// A sentence.
        public var description: String
    }

    private init(baseURL: String, limits: Limits, inbox: Inbox, client: HTTPClient, server: Task<Void, any Error>) {
        self.baseURL = baseURL
        self.limits = limits
        self.inbox = inbox
        self.client = client
        self.server = server
    }

    /// Starts the server and the client.
    ///
    /// - Parameters:
    ///   - host: The address to listen on; loopback by default.
    ///   - port: The port; 0 for one the system chooses.
    ///   - limits: What the processor accepts and sends.
    ///   - logger: Where the server writes what it does; by default nowhere, so that a tool's output
    ///     stays its own.
    /// - Throws: ``StartError`` when the server cannot listen.
    public static func start(
        host: String = "127.0.0.1", port: Int = 0, limits: Limits = Limits(),
        logger: Logger = Logger(label: "statecharts.http", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> BasicHTTPEventProcessor {
        let inbox = Inbox(limits: limits)
        let router = Router()
        router.post("/scxml/:session") { request, context -> Response in
            try await Self.receive(request, context: context, inbox: inbox, limits: limits)
        }
        let (bound, continuation) = AsyncStream<Int?>.makeStream()
        let application = Application(
            router: router, configuration: .init(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port)
                continuation.finish()
            }, logger: logger)
        let server = Task {
            defer { continuation.finish() }
            try await application.run()
        }
        var boundPort: Int?
        for await value in bound {
            boundPort = value
            break
        }
        guard let boundPort else {
            server.cancel()
            _ = await server.result
            throw StartError(description: "the Basic HTTP Event I/O Processor cannot listen on \(host):\(port)")
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return BasicHTTPEventProcessor(
            baseURL: "http://\(shownHost):\(boundPort)", limits: limits, inbox: inbox,
            client: HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: HTTPClient.Configuration(redirectConfiguration: .disallow)),
            server: server)
    }

    /// Stops the server and the client; sends under way are abandoned.
    public func shutdown() async {
        server.cancel()
        _ = await server.result
        try? await client.shutdown()
    }

    // MARK: - SCXMLEventProcessor

    /// Opens a session: events POSTed to its location are accepted from now on.
    public func open(session: String) -> String {
        inbox.open(session)
        return location(of: session)
    }

    /// Closes a session: events for it are refused with 404 from now on.
    public func close(session: String) {
        inbox.close(session)
    }

    /// The location of a session at this processor.
    public func location(of session: String) -> String {
        "\(baseURL)/scxml/\(Self.encodePathSegment(session))"
    }

    /// POSTs the event to `target` from a task of its own.
    public func send(_ event: SCXMLEvent, to target: String, from source: String, ticket: UInt64) -> Bool {
        if let refusal = refusal(of: target) {
            inbox.report(.failed(ticket: ticket, reason: refusal))
            return false
        }
        guard inbox.beginSend(limit: limits.maximumSendsInFlight) else {
            inbox.report(.failed(ticket: ticket, reason: "too many sends are under way"))
            return false
        }
        let awaited = inbox.isOwnSession(target, baseURL: baseURL)
        let (body, contentType, query) = Self.encode(event)
        var headers = [(Self.ticketHeader, String(ticket)), (Self.originHeader, location(of: source))]
        if event.raw != nil { headers.append((Self.contentHeader, "percent-encoded")) }
        let inbox = inbox
        Task {
            if let failure = await post(body, contentType: contentType, query: query, to: target, headers: headers) {
                inbox.endSend(.failed(ticket: ticket, reason: failure))
            } else {
                inbox.endSend(.delivered(ticket: ticket))
            }
        }
        return awaited
    }

    /// Why a send to `target` is refused before anything leaves the process: it is not an HTTP URL
    /// of an allowed host. `nil` when it may go.
    func refusal(of target: String) -> String? {
        guard let url = URL(string: target), url.scheme == "http" || url.scheme == "https",
            let host = url.host, limits.allowedHosts.contains(host)
        else {
            return
                "'\(target)' is not an HTTP URL of an allowed host (\(limits.allowedHosts.sorted().joined(separator: ", ")))"
        }
        return nil
    }

    /// POSTs `body` to `target` (with `query` added to its URL) and waits for the answer; why it
    /// failed, or `nil` when a `2xx` answered.
    func post(
        _ body: String, contentType: String, query: String?, to target: String, headers: [(String, String)]
    ) async -> String? {
        var request = HTTPClientRequest(url: query.map { target + (target.contains("?") ? "&" : "?") + $0 } ?? target)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: contentType)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(string: body))
        let (seconds, attoseconds) = limits.sendTimeout.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let timeout = TimeAmount.nanoseconds(
            overflow ? .max : whole.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue)
        do {
            let response = try await client.execute(request, timeout: timeout)
            guard (200..<300).contains(response.status.code) else {
                return "\(target) answered \(response.status.code) \(response.status.reasonPhrase)"
            }
            return nil
        } catch {
            return "\(target) could not be reached: \(error)"
        }
    }

    /// What arrived and what the sends reported, in order.
    public func takeArrivals() -> [SCXMLArrival] { inbox.take() }

    /// Whether sends are under way or arrivals wait.
    public var isBusy: Bool { inbox.isBusy }

    /// Waits, polling every few milliseconds, until an arrival waits or no send is under way.
    public func waitForArrivals(upTo timeout: Duration) async {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while inbox.isWaitingForSends, clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    // MARK: - The wire

    /// The header that carries a send's ticket, so that the session can keep its place.
    static let ticketHeader = "Statecharts-Ticket"
    /// The header that carries the sending session's location (the event's `origin`).
    static let originHeader = "Statecharts-Origin"
    /// The header that says a text body is percent-encoded content.
    static let contentHeader = "Statecharts-Content"

    /// The body, content type and query of an event: its name as `_scxmleventname`; its data as
    /// form parameters, or its content (`SCXMLEvent/raw`) as the body, percent-encoded.
    static func encode(_ event: SCXMLEvent) -> (body: String, contentType: String, query: String?) {
        let form = "application/x-www-form-urlencoded"
        let name = event.name.isEmpty ? nil : "_scxmleventname=" + formEncode(event.name)
        if let content = event.raw {
            // Percent-encoded (a space as %20), one of the two encodings SCXML's tests look for in
            // the request.
            return (encodePathSegment(content), "text/plain; charset=utf-8", name)
        }
        var pairs = name.map { [$0] } ?? []
        if case .object(let values) = event.data {
            for key in values.keys.sorted() {
                pairs.append(formEncode(key) + "=" + formEncode(values[key]?.description ?? ""))
            }
        } else if let data = event.data {
            pairs.append("_scxmldata=" + formEncode(data.json))
        }
        return (pairs.joined(separator: "&"), form, nil)
    }

    /// Turns a POST into an event of its session.
    static func receive(
        _ request: Request, context: some RequestContext, inbox: Inbox, limits: Limits
    ) async throws -> Response {
        var request = request
        guard let session = context.parameters.get("session").flatMap({ $0.removingPercentEncoding }),
            inbox.isOpen(session)
        else { return Response(status: .notFound) }
        let bodyBuffer = try await request.collectBody(upTo: limits.maximumBodySize)
        let body = String(buffer: bodyBuffer)
        var raw = "\(request.method.rawValue) \(request.uri.description) HTTP/1.1\r\n"
        for field in request.headers { raw += "\(field.name.rawName): \(field.value)\r\n" }
        raw += "\r\n" + body
        var parameters = formDecode(request.uri.query ?? "")
        let contentType = request.headers[.contentType] ?? ""
        var data: SCXMLValue?
        if contentType.hasPrefix("application/x-www-form-urlencoded") {
            parameters += formDecode(body)
        } else if !body.isEmpty {
            let text =
                header(contentHeader, in: request) == "percent-encoded" ? (body.removingPercentEncoding ?? body) : body
            data = SCXMLValue(json: text) ?? .string(text)
        }
        let name = parameters.first { $0.name == "_scxmleventname" }?.value ?? "HTTP.\(request.method.rawValue)"
        var fields: [String: SCXMLValue] = [:]
        for parameter in parameters where !parameter.name.hasPrefix("_scxml") {
            fields[parameter.name] =
                SCXMLValue(json: parameter.value).flatMap { value in
                    if case .string = value { return nil }
                    return value
                } ?? .string(parameter.value)
        }
        if let encoded = parameters.first(where: { $0.name == "_scxmldata" })?.value {
            data = SCXMLValue(json: encoded) ?? .string(encoded)
        } else if data == nil, !fields.isEmpty {
            data = .object(fields)
        }
        let ticket = header(ticketHeader, in: request).flatMap { UInt64($0) }
        let event = SCXMLEvent(
            name, data: data, type: .external, origin: header(originHeader, in: request), originType: uri, raw: raw)
        guard inbox.arrive(.event(event, session: session, ticket: ticket)) else {
            return Response(status: .serviceUnavailable)
        }
        return Response(status: .ok)
    }

    /// The value of a header, by name, whatever its case.
    static func header(_ name: String, in request: Request) -> String? {
        let wanted = name.lowercased()
        return request.headers.first { $0.name.canonicalName == wanted }?.value
    }

    // MARK: - Form encoding

    static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    static func formEncode(_ text: String) -> String {
        (text.addingPercentEncoding(withAllowedCharacters: unreserved.union(CharacterSet(charactersIn: " "))) ?? "")
            .replacingOccurrences(of: " ", with: "+")
    }

    static func formDecodeComponent(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text
    }

    static func formDecode(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (
                formDecodeComponent(String(parts[0])), parts.count > 1 ? formDecodeComponent(String(parts[1])) : ""
            )
        }
    }

    static func encodePathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}

extension BasicHTTPEventProcessor {
    /// What the server and the client's tasks share with the session's side: the open sessions,
    /// what arrived, and how many sends are under way.
    final class Inbox: Sendable {
        struct Contents {
            var sessions: Set<String> = []
            var arrivals: [SCXMLArrival] = []
            var sendsInFlight = 0
        }

        let contents = Locked(Contents())
        let limits: Limits

        init(limits: Limits) { self.limits = limits }

        func open(_ session: String) { contents.withLock { _ = $0.sessions.insert(session) } }

        func close(_ session: String) {
            contents.withLock { contents in
                contents.sessions.remove(session)
                contents.arrivals.removeAll {
                    if case .event(_, let target, _) = $0 { return target == session }
                    return false
                }
            }
        }

        func isOpen(_ session: String) -> Bool { contents.withLock { $0.sessions.contains(session) } }

        /// Whether `target` is the location of a session open here.
        func isOwnSession(_ target: String, baseURL: String) -> Bool {
            let prefix = baseURL + "/scxml/"
            guard target.hasPrefix(prefix), let session = String(target.dropFirst(prefix.count)).removingPercentEncoding
            else { return false }
            return isOpen(session)
        }

        /// Queues an event that arrived; `false` when too many wait.
        func arrive(_ arrival: SCXMLArrival) -> Bool {
            contents.withLock { contents in
                guard contents.arrivals.count < limits.maximumWaitingArrivals else { return false }
                contents.arrivals.append(arrival)
                return true
            }
        }

        func report(_ arrival: SCXMLArrival) { contents.withLock { $0.arrivals.append(arrival) } }

        func beginSend(limit: Int) -> Bool {
            contents.withLock { contents in
                guard contents.sendsInFlight < limit else { return false }
                contents.sendsInFlight += 1
                return true
            }
        }

        /// A send ended; `arrival` is what a session's send reports (a live machine's reports
        /// nothing here: its delivery throws).
        func endSend(_ arrival: SCXMLArrival?) {
            contents.withLock { contents in
                contents.sendsInFlight -= 1
                if let arrival { contents.arrivals.append(arrival) }
            }
        }

        func take() -> [SCXMLArrival] {
            contents.withLock { contents in
                defer { contents.arrivals.removeAll() }
                return contents.arrivals
            }
        }

        var isBusy: Bool { contents.withLock { $0.sendsInFlight > 0 || !$0.arrivals.isEmpty } }

        /// Whether sends are under way and nothing has arrived to be taken yet.
        var isWaitingForSends: Bool { contents.withLock { $0.sendsInFlight > 0 && $0.arrivals.isEmpty } }
    }
}
#endif
