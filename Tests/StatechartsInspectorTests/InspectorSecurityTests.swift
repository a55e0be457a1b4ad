#if Inspector
import Foundation
import Statecharts
import Testing

@testable import StatechartsInspector

/// The inspector as an attacker meets it: requests written byte for byte on a loopback socket,
/// with paths the router would read otherwise, forged hosts, other sites' origins, bodies of the
/// wrong type. Each must be refused before it reaches the machine.
@Suite struct InspectorSecurityTests {
    /// An attached recorder, idle, and its server.
    @MainActor static func serve() async throws -> (IsolatedStatechart<Recorder, RecorderEvent, Takes>, InspectorServer)
    {
        let machine = IsolatedStatechart(try recorderChart(), context: Takes())
        try machine.start()
        return (machine, try await InspectorServer.attach(machine, events: recorderEvent))
    }

    @Test("Every route needs the token, checked on the path as sent; a path the router would read otherwise is refused")
    @MainActor func tokenOnEveryRoute() async throws {
        let (_, server) = try await Self.serve()
        let port = server.port
        let token = server.token
        let cases: [(method: String, target: String, status: Int)] = [
            ("GET", "/", 401), ("GET", "/index.html", 401), ("GET", "/inspector.js", 401),
            ("GET", "/api/chart", 401), ("GET", "/api/snapshot", 401), ("GET", "/api/timeline", 401),
            ("GET", "/api/updates", 401),
            // The router reads `//` as `/`: the check no longer looks at a prefix.
            ("GET", "//api/snapshot", 401), ("GET", "//api/snapshot?token=\(token)", 404),
            ("GET", "/api/../api/snapshot?token=\(token)", 404), ("GET", "/api%2Fsnapshot?token=\(token)", 404),
            ("GET", "/api/snapshot/?token=\(token)", 404), ("GET", "/API/snapshot?token=\(token)", 404),
            ("GET", "/api/snapshot?token=\(token)x", 401), ("GET", "/api/snapshot?token=\(token.dropLast())", 401),
            ("GET", "/api/snapshot?token=%\(token)", 401), ("GET", "/elsewhere?token=\(token)", 404),
            ("POST", "/api/snapshot?token=\(token)", 405), ("DELETE", "/api/snapshot?token=\(token)", 405),
            ("GET", "/api/snapshot?token=\(token)", 200), ("GET", "/?token=\(token)", 200),
            ("GET", "/inspector.js?token=\(token)", 200),
        ]
        for entry in cases {
            let answer = try await RawHTTP.request(port: port, entry.method, entry.target)
            #expect(answer.status == entry.status, "\(entry.method) \(entry.target)")
        }
        await server.stop()
    }

    @Test("A request for another host (DNS rebinding) is refused; the loopback names with the server's port are not")
    @MainActor func hostChecked() async throws {
        let (_, server) = try await Self.serve()
        let target = "/api/snapshot?token=\(server.token)"
        for host in [
            "evil.example:\(server.port)", "evil.example", "127.0.0.1:1", "127.0.0.1", "127.0.0.1.evil.example",
        ] {
            let answer = try await RawHTTP.request(port: server.port, "GET", target, headers: ["Host": host])
            #expect(answer.status == 421, "Host: \(host)")
        }
        for host in ["127.0.0.1:\(server.port)", "localhost:\(server.port)", "LOCALHOST:\(server.port)"] {
            let answer = try await RawHTTP.request(port: server.port, "GET", target, headers: ["Host": host])
            #expect(answer.status == 200, "Host: \(host)")
        }
        await server.stop()
    }

    @Test("A cross-site request cannot drive the machine: text/plain, another Origin, or Sec-Fetch-Site cross-site")
    @MainActor func crossSiteRefused() async throws {
        let (machine, server) = try await Self.serve()
        let target = "/api/events?token=\(server.token)"
        let body = #"{"name": "record"}"#
        let refused: [([String: String], Int)] = [
            (["Content-Type": "text/plain"], 415),
            (["Content-Type": "application/x-www-form-urlencoded"], 415),
            ([:], 415),
            (["Content-Type": "application/json", "Origin": "http://evil.example"], 403),
            (["Content-Type": "application/json", "Origin": "null"], 403),
            (["Content-Type": "application/json", "Origin": "http://127.0.0.1:\(server.port + 1)"], 403),
            (["Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"], 403),
            (["Content-Type": "application/json", "Sec-Fetch-Site": "same-site"], 403),
        ]
        for (headers, status) in refused {
            let answer = try await RawHTTP.request(port: server.port, "POST", target, headers: headers, body: body)
            #expect(answer.status == status, "\(headers)")
        }
        #expect(machine.configuration == [.idle])
        let allowed = try await RawHTTP.request(
            port: server.port, "POST", target,
            headers: [
                "Content-Type": "application/json; charset=utf-8", "Origin": "http://127.0.0.1:\(server.port)",
                "Sec-Fetch-Site": "same-origin",
            ], body: body)
        #expect(allowed.status == 200)
        #expect(machine.configuration == [.recording])
        await server.stop()
    }

    @Test("The WebSocket is refused to another Origin and without the token, and opened for the page")
    @MainActor func webSocketChecked() async throws {
        let (_, server) = try await Self.serve()
        func upgrade(_ target: String, origin: String) async throws -> Int {
            try await RawHTTP.request(
                port: server.port, "GET", target,
                headers: [
                    "Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Origin": origin,
                ]
            ).status
        }
        let own = "http://127.0.0.1:\(server.port)"
        #expect(try await upgrade("/api/updates?token=\(server.token)", origin: "http://evil.example") != 101)
        #expect(try await upgrade("//api/updates?token=\(server.token)", origin: own) != 101)
        #expect(try await upgrade("/api/updates?token=wrong", origin: own) != 101)
        #expect(try await upgrade("/api/updates?token=\(server.token)", origin: own) == 101)
        await server.stop()
    }

    @Test("The page runs no inline script, under a policy that allows the server's own script only")
    @MainActor func pageWithoutInlineScript() async throws {
        let (_, server) = try await Self.serve()
        let page = try await RawHTTP.request(port: server.port, "GET", "/?token=\(server.token)")
        #expect(page.status == 200)
        let policy = page.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-security-policy:") }
        let directives = (policy.map(String.init) ?? "").split(separator: ";").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let scripts = directives.first { $0.contains("script-src") } ?? ""
        #expect(scripts.hasSuffix("script-src 'self'"), "\(directives)")
        #expect(directives.contains("frame-ancestors 'none'"))
        // Every script element has a source, and no element has an inline handler.
        let scriptTags = page.body.components(separatedBy: "<script").dropFirst()
        #expect(scriptTags.count == 1)
        #expect(scriptTags.allSatisfy { $0.hasPrefix(" src=\"/inspector.js?token=") })
        #expect(page.body.range(of: #"\son[a-z]+\s*="#, options: .regularExpression) == nil)
        let script = try await RawHTTP.request(port: server.port, "GET", "/inspector.js?token=\(server.token)")
        #expect(!script.body.contains("innerHTML"))
        #expect(script.body.contains("DOMParser"))
        await server.stop()
    }

    @Test("A token that is not one is refused when the server starts")
    @MainActor func tokenChecked() async throws {
        let machine = IsolatedStatechart(try recorderChart(), context: Takes())
        try machine.start()
        for token in ["short", "\"><script>alert(1)</script>0123456789", String(repeating: "a", count: 257), ""] {
            await #expect(throws: InspectorError.self) {
                _ = try await InspectorServer.attach(machine, token: token, events: recorderEvent)
            }
        }
        let server = try await InspectorServer.attach(machine, token: "a-token_of.16~chars", events: recorderEvent)
        #expect(server.token == "a-token_of.16~chars")
        await server.stop()
    }
}

/// The timeline's memory, bounded by bytes as well as by steps.
@Suite struct InspectorTimelineBudgetTests {
    @Test("Steps with large data are dropped, oldest first, to keep the timeline within its bytes; the newest stays")
    @MainActor func bytesBounded() async throws {
        let hub = InspectorHub(target: SilentTarget(), timelineLimit: 1000, timelineBytes: 100_000)
        let large = InspectorValue.string(String(repeating: "x", count: 30_000))
        for index in 0..<50 {
            let snapshot = InspectorSnapshot(
                configuration: ["idle"], active: ["idle"], events: [], data: large, time: 0, status: "running")
            await hub.record(InspectorStep(index: index, label: "step \(index)", snapshot: snapshot))
        }
        let timeline = await hub.timeline
        #expect(timeline.count == 3)
        #expect(timeline.last?.index == 49)
        // A single step larger than the budget is still kept: the newest is always shown.
        let huge = InspectorValue.string(String(repeating: "y", count: 200_000))
        await hub.record(
            InspectorStep(
                index: 50, label: "huge",
                snapshot: InspectorSnapshot(
                    configuration: [], active: [], events: [], data: huge, time: 0, status: "running")))
        #expect(await hub.timeline.map(\.index) == [50])
    }
}

/// A target that reports nothing, for the hub alone.
private final class SilentTarget: InspectorTarget {
    let chartName = "silent"
    let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\"/>"
    let abilities = InspectorAbilities(sending: false, timeTravel: false, clock: false)

    func connect(report: @escaping @Sendable (InspectorStep) -> Void) async -> InspectorStep {
        InspectorStep(index: 0, label: "start", snapshot: await snapshot())
    }

    func snapshot() async -> InspectorSnapshot {
        InspectorSnapshot(configuration: [], active: [], events: [], time: 0, status: "running")
    }

    func send(_ event: InspectorEvent) async throws(InspectorError) { throw InspectorError("silent") }
    func resume(from index: Int) async throws(InspectorError) { throw InspectorError("silent") }
    func advance(by seconds: Double) async throws(InspectorError) { throw InspectorError("silent") }
    func disconnect() async {}
}
#endif
