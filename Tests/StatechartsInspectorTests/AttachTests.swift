#if Inspector
import Foundation
import Statecharts
import StatechartsInspector
import Testing

enum Recorder: Hashable, Sendable { case idle, recording, paused, saved }

enum RecorderEvent: StatechartEvent, CaseIterable, Sendable { case record, pause, resume, stop }

struct Takes: Sendable, Equatable, Codable {
    var started = 0
    var saved = 0
}

func recorderChart() throws -> Statechart<Recorder, RecorderEvent, Takes> {
    try Statechart(initial: .idle) {
        StateNode(.idle) {
            On(.record, to: .recording) { $0.context.started += 1 }
        }
        StateNode(.recording) {
            On(.pause, to: .paused)
            On(.stop, to: .saved)
        }
        StateNode(.paused) {
            On(.resume, to: .recording)
            On(.stop, to: .saved)
        }
        StateNode(.saved) {
            OnEntry { $0.context.saved += 1 }
        }
    }
}

/// Makes the event the page names, as an app would.
func recorderEvent(named name: String, data: InspectorValue?) -> RecorderEvent? {
    RecorderEvent.allCases.first { "\($0)" == name }
}

/// A live machine attached to an inspector in this process, driven over loopback.
@Suite struct AttachTests {
    @Test(
        "An attached IsolatedStatechart: the page, the chart as SVG, the snapshot, and the token on every API request")
    @MainActor func isolatedPageAndAPI() async throws {
        let machine = IsolatedStatechart(try recorderChart(), context: Takes())
        try machine.start()
        let server = try await InspectorServer.attach(machine, events: recorderEvent)
        let client = InspectorClient(server: server)
        do {
            #expect(server.pageURL == "http://127.0.0.1:\(server.port)/?token=\(server.token)")
            #expect(server.token.count == 32)

            #expect(try await client.request(.GET, "/", withToken: false).status == 401)
            let page = try await client.request(.GET, "/?token=\(server.token)", withToken: false)
            #expect(page.status == 200)
            #expect(page.contentType?.hasPrefix("text/html") == true)
            #expect(page.body.contains("<script src=\"/inspector.js?token=\(server.token)\"></script>"))
            let script = try await client.request(.GET, "/inspector.js")
            #expect(script.contentType?.hasPrefix("text/javascript") == true)
            #expect(script.body.contains("data-event") && script.body.contains("/api/updates"))

            #expect(try await client.request(.GET, "/api/chart", withToken: false).status == 401)
            #expect(try await client.request(.GET, "/api/snapshot?token=wrong", withToken: false).status == 401)
            #expect(
                try await client.request(.GET, "/api/snapshot?token=\(server.token)", withToken: false).status == 200)

            struct Chart: Decodable {
                var name: String
                var svg: String
                var abilities: InspectorAbilities
            }
            let chart = try await client.request(.GET, "/api/chart").decoded(Chart.self)
            for state in ["idle", "recording", "paused", "saved"] {
                #expect(chart.svg.contains("data-state=\"\(state)\""))
            }
            #expect(chart.abilities == InspectorAbilities(sending: true, timeTravel: false, clock: false))

            // The WebSocket needs the token too: the upgrade is refused at once.
            do {
                _ = try await client.watch(query: "token=wrong") { _ in true }
                Issue.record("the WebSocket was opened with a wrong token")
            } catch is InspectorClient.TimedOut {
                Issue.record("the WebSocket with a wrong token was neither opened nor refused")
            } catch {}
            let query = try await client.watch(query: "token=\(server.token)") { $0.count == 1 }
            #expect(query.first?.type == "timeline")

            let before = try await client.snapshot()
            #expect(before.configuration == ["idle"])
            #expect(before.events == ["record"])
            #expect(before.data == .object(["started": .number(0), "saved": .number(0)]))
            #expect(before.status == "running")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("The page's events reach the machine, and each step of the machine reaches the page over the WebSocket")
    @MainActor func isolatedEventsBothWays() async throws {
        let machine = IsolatedStatechart(try recorderChart(), context: Takes())
        try machine.start()
        let server = try await InspectorServer.attach(machine, events: recorderEvent)
        let client = InspectorClient(server: server)
        do {
            let reply = try await client.send("record")
            #expect(reply.status == 200)
            #expect(machine.configuration == [.recording])
            #expect(machine.context.started == 1)
            #expect(try reply.decoded(InspectorSnapshot.self).configuration == ["recording"])

            // The app sends an event itself; the page hears of it.
            let messages = try await client.watch(then: { @MainActor in try machine.send(.pause) }) { messages in
                messages.contains { $0.step?.snapshot.configuration == ["paused"] }
            }
            let first = try #require(messages.first)
            #expect(first.type == "timeline")
            #expect(first.steps?.first?.index == 0)
            #expect(first.steps?.last?.snapshot.configuration == ["recording"])
            let step = try #require(messages.last?.step)
            #expect(step.exited == ["recording"])
            #expect(step.entered == ["paused"])
            #expect(step.transitions == [InspectorTransition(source: "recording", event: "pause", targets: ["paused"])])
            #expect(step.snapshot.events.sorted() == ["resume", "stop"])
            #expect(step.index == (first.steps?.last?.index ?? -1) + 1)

            // What the page may not do.
            let unknown = try await client.send("fly")
            #expect(unknown.status == 422)
            #expect(unknown.errorMessage?.contains("fly") == true)
            #expect(try await client.request(.POST, "/api/resume", json: "{\"step\": 0}").status == 409)
            #expect(try await client.request(.POST, "/api/clock", json: "{\"advance\": 1}").status == 409)
            let malformed = try await client.request(.POST, "/api/events", json: "{\"nom\": 1}")
            #expect(malformed.status == 400)
            #expect(malformed.errorMessage?.contains("'name' is missing") == true)
            #expect(machine.configuration == [.paused])
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("A state's timeout is a pending timer with its state and time left, never an event button")
    @MainActor func timeoutAsTimer() async throws {
        enum Door: Hashable, Sendable { case shut, open, alarm }
        enum DoorEvent: StatechartEvent, CaseIterable, Sendable { case open, shut }
        let chart = try Statechart<Door, DoorEvent, Void>(initial: .shut) {
            StateNode(.shut) { On(.open, to: .open) }
            StateNode(.open) {
                After(.seconds(60), to: .alarm)
                On(.shut, to: .shut)
            }
            StateNode(.alarm) { On(.shut, to: .shut) }
        }
        let machine = IsolatedStatechart(chart)
        try machine.start()
        let server = try await InspectorServer.attach(machine) { name, _ in
            DoorEvent.allCases.first { "\($0)" == name }
        }
        let client = InspectorClient(server: server)
        do {
            let reply = try await client.send("open")
            let snapshot = try reply.decoded(InspectorSnapshot.self)
            #expect(snapshot.events == ["shut"])
            let timer = try #require(snapshot.timers.first)
            #expect(snapshot.timers.count == 1)
            #expect(timer.name == "timeout of open" && timer.state == "open" && timer.id == nil)
            #expect(
                timer.due - snapshot.time > 59 && timer.due - snapshot.time <= 60, "\(timer.due) at \(snapshot.time)")
            let shut = try await client.send("shut").decoded(InspectorSnapshot.self)
            #expect(shut.timers.isEmpty, "exiting the state cancels its timeout")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("Without an event maker, the page watches only: sending is refused with 403")
    @MainActor func watchOnly() async throws {
        let machine = IsolatedStatechart(try recorderChart(), context: Takes())
        try machine.start()
        let server = try await InspectorServer.attach(machine)
        let client = InspectorClient(server: server)
        let reply = try await client.send("record")
        await server.stop()
        #expect(reply.status == 403)
        #expect(machine.configuration == [.idle])
    }

    @Test("An attached StatechartActor, driven from the page and from the app")
    func actor() async throws {
        let machine = StatechartActor(try recorderChart(), context: Takes())
        try await machine.start()
        let server = try await InspectorServer.attach(
            machine, events: { name, _ in recorderEvent(named: name, data: nil) })
        let client = InspectorClient(server: server)
        do {
            #expect(try await client.send("record").status == 200)
            #expect(await machine.snapshot.configuration == [.recording])
            let messages = try await client.watch(then: { _ = try await machine.send(.stop) }) { messages in
                messages.contains { $0.step?.snapshot.configuration == ["saved"] }
            }
            let step = try #require(messages.last?.step)
            #expect(step.snapshot.data == .object(["started": .number(1), "saved": .number(1)]))
            #expect(step.transitions == [InspectorTransition(source: "recording", event: "stop", targets: ["saved"])])
            #expect(step.exited == ["recording"] && step.entered == ["saved"])
            #expect(try await client.snapshot().configuration == ["saved"])
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("After stop, the server no longer answers")
    @MainActor func stops() async throws {
        let machine = IsolatedStatechart(try recorderChart(), context: Takes())
        let server = try await InspectorServer.attach(machine)
        let client = InspectorClient(server: server)
        #expect(try await client.request(.GET, "/api/snapshot").status == 200)
        #expect(Self.acceptsConnections(port: server.port))
        await server.stop()
        // A new connection is refused. (An HTTP client would retry until its deadline.)
        #expect(!Self.acceptsConnections(port: server.port))
    }

    /// Whether something listens on 127.0.0.1:`port`: one plain TCP connection attempt.
    static func acceptsConnections(port: Int) -> Bool {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }
}
#endif
