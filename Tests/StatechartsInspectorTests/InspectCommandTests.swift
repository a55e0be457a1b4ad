#if Inspector && Tools
import Foundation
import StatechartsInspector
import StatechartsSCXML
import StatechartsTesting
import Testing

#if Store
import StatechartsStore
#endif

/// `statechart inspect`, run as a user runs it, driven over loopback through its API and WebSocket.
@Suite struct InspectCommandTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A running `statechart inspect`.
    struct Inspector {
        let process: Process
        let client: InspectorClient
        let folder: URL

        func stop() {
            process.terminate()
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// Starts `statechart inspect DOCUMENT` and waits (at most 100 × 0.1 s) for its address.
    static func inspect(
        _ document: String, writing contents: String? = nil, arguments: [String] = [], in folder: URL? = nil
    ) async throws -> Inspector {
        let binary = try #require(BuiltProducts.executable(named: "statechart"), "the statechart binary is not built")
        let folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var path = document.hasPrefix("/") ? document : packageRoot.appendingPathComponent(document).path
        if let contents {
            path = folder.appendingPathComponent(document).path
            try contents.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let urlFile = folder.appendingPathComponent("url").path
        let process = Process()
        process.executableURL = binary
        process.arguments = ["inspect", path, "--url-file", urlFile] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<100 {
            if let text = try? String(contentsOfFile: urlFile, encoding: .utf8),
                let client = InspectorClient(pageURL: text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                return Inspector(process: process, client: client, folder: folder)
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        process.terminate()
        process.waitUntilExit()
        throw Failure(description: "statechart inspect did not write its address in 10 s")
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    @Test("inspect: events from the API, the virtual clock advanced by the page, timers as steps of the timeline")
    func eventsAndClock() async throws {
        let inspector = try await Self.inspect("Examples/media-player.scxml")
        defer { inspector.stop() }
        let client = inspector.client

        let start = try await client.snapshot()
        #expect(start.configuration == ["stopped"])
        #expect(start.events.sorted() == ["eject", "play"])
        #expect(try await client.request(.GET, "/api/snapshot", withToken: false).status == 401)

        #expect(try await client.send("play").status == 200)
        let playing = try await client.snapshot()
        #expect(playing.active == ["playing", "audible"])
        #expect(playing.timers == [InspectorSnapshot.PendingTimer(name: "tick", due: 1, id: "tick")])
        #expect(playing.events.sorted() == ["mute", "pause", "scrub", "stop"], "the timer tick is no event button")

        // Three ticks fire on the way to 3.5 s: one step each, at its own time.
        let clock = try await client.request(.POST, "/api/clock", json: "{\"advance\": 3.5}")
        #expect(clock.status == 200)
        #expect(try clock.decoded(InspectorSnapshot.self).time == 3.5)
        struct Timeline: Decodable { var steps: [InspectorStep] }
        let timeline = try await client.request(.GET, "/api/timeline").decoded(Timeline.self).steps
        #expect(timeline.map(\.index) == [0, 1, 2, 3, 4])
        #expect(timeline.map(\.label) == ["start", "play", "timers at 1 s", "timers at 2 s", "timers at 3 s"])
        #expect(timeline[1].event == InspectorEvent(name: "play"))
        #expect(timeline[1].entered.contains("playing") && timeline[1].exited == ["stopped"])
        #expect(timeline[2].snapshot.time == 1 && timeline[3].snapshot.time == 2)
        // The newest step follows the clock to 3.5 s, where nothing happened.
        #expect(timeline[4].snapshot.time == 3.5)
        #expect(timeline[4].snapshot.timers.first?.due == 4)

        let refused = try await client.request(.POST, "/api/clock", json: "{\"advance\": -1}")
        #expect(refused.status == 400)
        let unknown = try await client.send("fly")
        #expect(unknown.status == 422)
        #expect(unknown.errorMessage?.contains("has no event 'fly'") == true)
    }

    @Test("inspect: resuming from a step of the timeline, announced over the WebSocket")
    func timeTravel() async throws {
        let inspector = try await Self.inspect("Examples/media-player.scxml")
        defer { inspector.stop() }
        let client = inspector.client
        #expect(try await client.send("play").status == 200)
        #expect(try await client.send("pause").status == 200)
        #expect(try await client.snapshot().active == ["paused", "audible"])

        let messages = try await client.watch(then: {
            _ = try await client.request(.POST, "/api/resume", json: "{\"step\": 1}")
        }) { messages in messages.count >= 2 }
        #expect(messages.first?.type == "timeline")
        #expect(messages.first?.steps?.map(\.index) == [0, 1, 2])
        let resumed = try #require(messages.last)
        #expect(resumed.type == "timeline")
        #expect(resumed.steps?.map(\.index) == [0, 1])
        #expect(resumed.steps?.last?.messages.contains("resumed from here") == true)
        #expect(try await client.snapshot().active == ["playing", "audible"])

        // The timeline goes on from step 1.
        let next = try await client.watch(then: { _ = try await client.send("stop") }) { messages in
            messages.contains { $0.type == "step" }
        }
        let step = try #require(next.last?.step)
        #expect(step.index == 2)
        #expect(step.snapshot.configuration == ["stopped"])
        #expect(try await client.request(.POST, "/api/resume", json: "{\"step\": 9}").status == 404)
    }

    @Test("inspect: event data reaches the document's _event.data, and the data model is in the snapshot")
    func eventData() async throws {
        let document = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="idle">
              <datamodel><data id="level" expr="0"/></datamodel>
              <state id="idle">
                <transition event="set" cond="_event.data.level > 2" target="high">
                  <assign location="level" expr="_event.data.level"/>
                </transition>
              </state>
              <state id="high"/>
            </scxml>
            """
        let inspector = try await Self.inspect("levels.scxml", writing: document)
        defer { inspector.stop() }
        let client = inspector.client
        #expect(try await client.send("set", data: "{\"level\": 1}").status == 200)
        #expect(try await client.snapshot().configuration == ["idle"])
        let reply = try await client.send("set", data: "{\"level\": 5}")
        let snapshot = try reply.decoded(InspectorSnapshot.self)
        #expect(snapshot.configuration == ["high"])
        #expect(snapshot.data["level"] == .number(5))
    }

    @Test("inspect: the clock run in real time moves the virtual time on, and the pages hear when it starts")
    func realTime() async throws {
        let inspector = try await Self.inspect("Examples/media-player.scxml")
        defer { inspector.stop() }
        let client = inspector.client
        #expect(try await client.send("play").status == 200)
        let messages = try await client.watch(then: {
            _ = try await client.request(.POST, "/api/clock", json: "{\"realTime\": true}")
        }) { messages in messages.contains { $0.type == "clock" } }
        #expect(messages.last == InspectorMessage(type: "clock", realTime: true))
        // The wall clock drives the virtual one: wait (at most 200 × 50 ms) until it has moved.
        var time = 0.0
        for _ in 0..<200 where time < 0.3 {
            try await Task.sleep(for: .milliseconds(50))
            time = try await client.snapshot().time
        }
        #expect(time >= 0.3)
        let stopped = try await client.request(.POST, "/api/clock", json: "{\"realTime\": false}")
        #expect(stopped.status == 200)
        // Stopped: the time stays where it is.
        let after = try await client.snapshot().time
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await client.snapshot().time == after)
    }

    #if Store && ECMAScript
    /// A document whose machines count their trips, for a fleet on a SQLite file.
    static let tripsDocument = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="parked">
          <datamodel><data id="trips" expr="0"/></datamodel>
          <state id="parked"><transition event="drive" target="driving"><assign location="trips" expr="trips + 1"/></transition></state>
          <state id="driving"><transition event="park" target="parked"/></state>
        </scxml>
        """

    @Test("inspect --store --machine: a durable machine's journal replayed, read-only, with its data model's values")
    func storedMachine() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let document = folder.appendingPathComponent("trips.scxml")
        try Self.tripsDocument.write(to: document, atomically: true, encoding: .utf8)
        let storePath = folder.appendingPathComponent("fleet.sqlite").path
        do {
            let chart = try SCXMLChart.load(Self.tripsDocument, file: document.path, dataModels: BuiltDataModels.all)
            let store = try SQLiteMachineStore(path: storePath)
            let fleet = try DurableMachines(document: chart, store: store)
            for name in ["drive", "park", "drive"] { try await fleet.send(SCXMLEvent(name), to: "van-7") }
            try await fleet.drain()
            try await fleet.send(SCXMLEvent("park"), to: "van-7")
        }
        let inspector = try await Self.inspect(
            document.path, arguments: ["--store", storePath, "--machine", "van-7"], in: folder)
        defer { inspector.stop() }
        let client = inspector.client

        struct Chart: Decodable {
            var name: String
            var abilities: InspectorAbilities
        }
        let chart = try await client.request(.GET, "/api/chart").decoded(Chart.self)
        #expect(chart.name.hasSuffix(": van-7"))
        #expect(chart.abilities == InspectorAbilities(sending: false, timeTravel: false, clock: false))
        struct Timeline: Decodable { var steps: [InspectorStep] }
        let steps = try await client.request(.GET, "/api/timeline").decoded(Timeline.self).steps
        // The creation, then each applied entry; the pending `park` is not in it.
        #expect(steps.map(\.label) == ["start", "#1 start", "#2 drive", "#3 park", "#4 drive"])
        #expect(steps.map(\.snapshot.configuration) == [[], ["parked"], ["driving"], ["parked"], ["driving"]])
        #expect(steps[2].transitions == [InspectorTransition(source: "parked", event: "drive", targets: ["driving"])])
        #expect(steps[2].snapshot.data == .object(["trips": .number(1)]))
        #expect(steps[4].snapshot.data == .object(["trips": .number(2)]))
        #expect(try await client.send("park").status == 403)
        // Reading it changed nothing: the pending event is still pending.
        #expect(try await SQLiteMachineStore(path: storePath).backlog(now: .max).pendingEvents == 1)
    }

    @Test("inspect --store: a machine the store does not have, and a store that is not there, are errors")
    func storedMachineErrors() async throws {
        let binary = try #require(BuiltProducts.executable(named: "statechart"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("trips.scxml")
        try Self.tripsDocument.write(to: document, atomically: true, encoding: .utf8)
        let storePath = folder.appendingPathComponent("fleet.sqlite").path
        _ = try SQLiteMachineStore(path: storePath)
        func run(_ arguments: [String]) throws -> (status: Int32, error: String) {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["inspect", document.path] + arguments
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
        let unknown = try run(["--store", storePath, "--machine", "no\u{1B}[2Jbody"])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("the store has no machine"))
        #expect(!unknown.error.contains("\u{1B}"))
        let missing = try run(["--store", folder.appendingPathComponent("none.sqlite").path, "--machine", "m"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("the tool never creates one"))
        let alone = try run(["--store", storePath])
        #expect(alone.status == 64)
        #expect(alone.error.contains("--store and --machine go together"))
        let live = try run(["--store", storePath, "--machine", "m", "--clock", "real"])
        #expect(live.status == 64)
        #expect(live.error.contains("--clock real does not go with --store"))
    }
    #endif
}
#endif
