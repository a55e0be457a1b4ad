import Foundation
import Statecharts
import StatechartsSCXML
import Testing

/// The null data model, wrapped so that a test can say whether it reads the events it is bound to
/// and count how often it is bound.
protocol CountingNullModel: SCXMLDataModel {
    var inner: NullDataModel { get set }
    var binds: Int { get set }
}

extension CountingNullModel {
    static func problem(with expression: SCXMLExpression, as use: SCXMLExpressionUse) -> String? {
        NullDataModel.problem(with: expression, as: use)
    }
    static func problem(with feature: SCXMLFeature) -> String? { NullDataModel.problem(with: feature) }
    mutating func bind(_ event: SCXMLEvent) { binds += 1 }
    mutating func condition(_ expression: SCXMLExpression, isActive: (String) -> Bool) throws -> Bool {
        try inner.condition(expression, isActive: isActive)
    }
    mutating func value(_ expression: SCXMLExpression, isActive: (String) -> Bool) throws -> SCXMLValue {
        try inner.value(expression, isActive: isActive)
    }
    mutating func declare(_ data: SCXMLData) throws { try inner.declare(data) }
    mutating func initialize(_ data: SCXMLData, isActive: (String) -> Bool) throws {
        try inner.initialize(data, isActive: isActive)
    }
    mutating func assign(
        to location: SCXMLExpression, expression: SCXMLExpression?, content: SCXMLInlineContent?,
        isActive: (String) -> Bool
    ) throws {
        try inner.assign(to: location, expression: expression, content: content, isActive: isActive)
    }
    mutating func store(_ value: SCXMLValue, in location: String, at sourceLocation: SourcePosition) throws {
        try inner.store(value, in: location, at: sourceLocation)
    }
    mutating func load(_ location: String, at sourceLocation: SourcePosition) throws -> SCXMLValue {
        try inner.load(location, at: sourceLocation)
    }
    mutating func run(_ script: SCXMLScript, isActive: (String) -> Bool) throws {
        try inner.run(script, isActive: isActive)
    }
    mutating func items(of array: SCXMLExpression, isActive: (String) -> Bool) throws -> [SCXMLValue] {
        try inner.items(of: array, isActive: isActive)
    }
}

/// Reads the events it is bound to (the default), so its machines are told of each one.
struct ReadingNullModel: CountingNullModel {
    static var names: Set<String> { ["reading-null"] }
    var inner: NullDataModel
    var binds = 0
    init(session: SCXMLSessionInfo) { inner = NullDataModel(session: session) }
}

/// Reads no event, as the null data model, so its machines take the quick steps.
struct QuietNullModel: CountingNullModel {
    static var names: Set<String> { ["quiet-null"] }
    static var readsBoundEvents: Bool { false }
    var inner: NullDataModel
    var binds = 0
    init(session: SCXMLSessionInfo) { inner = NullDataModel(session: session) }
}

@Suite struct InterpretedFastPathTests {
    /// A player with what the quick steps must get right: parallel regions, delayed sends sent on
    /// entry and cancelled on exit, deep history, an `In()` guard and a raised event.
    static func player(datamodel: String) -> String {
        """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="\(datamodel)" initial="stopped">
          <state id="stopped">
            <transition event="play" target="active"/>
          </state>
          <parallel id="active">
            <state id="transport" initial="playback">
              <state id="playback" initial="playing">
                <history id="resume" type="deep"><transition target="playing"/></history>
                <state id="playing">
                  <onentry><send id="tick" event="tick" delay="1s"/></onentry>
                  <onexit><cancel sendid="tick"/></onexit>
                  <transition event="tick" target="playing"/>
                  <transition event="pause" target="paused"/>
                </state>
                <state id="paused">
                  <onentry><send id="idle" event="idle" delay="300s"/></onentry>
                  <onexit><cancel sendid="idle"/></onexit>
                  <transition event="play" target="playing"/>
                  <transition event="idle" target="stopped"/>
                </state>
                <transition event="scrub" target="scrubbing"/>
              </state>
              <state id="scrubbing" initial="held">
                <state id="held"><transition event="move" target="dragging"/></state>
                <state id="dragging"><transition event="move"/></state>
                <transition event="release" target="resume"/>
              </state>
            </state>
            <state id="volume" initial="audible">
              <state id="audible">
                <transition event="mute" target="muted"/>
                <transition event="loud" cond="In('paused')"><raise event="mute"/></transition>
              </state>
              <state id="muted"><transition event="mute" target="audible"/></state>
            </state>
            <transition event="stop" target="stopped"/>
          </parallel>
        </scxml>
        """
    }

    /// The events sent, and `nil` for a second of waiting, which fires `tick` while playing.
    static let script: [String?] = [
        "play", "mute", nil, "pause", "mute", "loud", "play", nil, "scrub", "move", "move", "release", nil,
        "pause", "unknown", "scrub", "release", "stop", "play", "stop",
    ]

    /// Runs the script; returns the configuration after each call and the model's bind count.
    static func run<Model: CountingNullModel>(_ model: Model.Type) throws -> ([[String]], Int) {
        let chart = try SCXMLChart.load(player(datamodel: Model.names.first ?? ""), dataModels: [Model.self])
        var session = SCXMLSession(chart: chart)
        try session.start()
        var configurations = [session.configuration]
        for event in script {
            if let event {
                try session.send(SCXMLEvent(event))
            } else {
                try session.advance(by: .seconds(1))
            }
            configurations.append(session.configuration)
        }
        let binds = (session.machine.context.model as? Model)?.binds ?? -1
        return (configurations, binds)
    }

    @Test("a data model that reads no event is never bound, and goes where one bound to every event goes")
    func quietModelsAreNotBound() throws {
        let (reading, readingBinds) = try Self.run(ReadingNullModel.self)
        let (quiet, quietBinds) = try Self.run(QuietNullModel.self)
        #expect(quiet == reading)
        #expect(quietBinds == 0)
        // Every event sent, every tick fired and the raised `mute`: at least one bind each.
        #expect(readingBinds >= Self.script.count + 1)
        #expect(reading.last == ["stopped"])
        // After the second scrub and its release (call 17: configurations[0] is the start's), the
        // deep history brought back `paused`.
        #expect(reading[17].contains("paused"))
        #expect(NullDataModel.readsBoundEvents == false)
        #expect(ReadingNullModel.readsBoundEvents)
    }

    @Test("each call starts its cascade anew, with a whole budget, reused only while nothing else holds it")
    func eachCallHasAWholeCascade() throws {
        let seen = Locked<[(ObjectIdentifier, Bool, Duration?)]>([])
        let note = SCXMLNamedAction { _ in
            guard let cascade = SCXMLCascade.current else { return }
            seen.withLock { $0.append((ObjectIdentifier(cascade), cascade.isStopped, cascade.remainingScriptTime)) }
        }
        let chart = try SCXMLChart.load(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:sc="\(SCXMLExtensions.namespace)"
                   version="1.0" datamodel="null">
              <state id="a"><transition event="go" target="a"><sc:action name="note"/></transition></state>
            </scxml>
            """)
        var limits = SCXMLLimits.default
        limits.scriptTime = .seconds(30)
        var session = SCXMLSession(chart: chart, options: .init(limits: limits, actions: ["note": note]))
        try session.start()
        try session.send("go")
        try session.send("go")
        // A copy shares the cascade the session kept, so the copy's call makes one of its own.
        var copy = session
        try copy.send("go")
        try session.send("go")
        let calls = seen.withLock { $0 }
        #expect(calls.count == 4)
        #expect(calls.allSatisfy { !$0.1 })
        #expect(calls.allSatisfy { ($0.2 ?? .zero) > .seconds(20) && ($0.2 ?? .zero) <= .seconds(30) })
        #expect(calls[0].0 == calls[1].0)
        #expect(calls[2].0 != calls[1].0)
    }

    @Test("a cascade's script time is counted from the first time it is asked for, then stays")
    func scriptClockStartsWhenAsked() throws {
        var limits = SCXMLLimits.default
        limits.scriptTime = .seconds(30)
        let cascade = SCXMLCascade(limits: limits)
        // Time spent before any script asks (a step of the null data model) is not script time.
        Thread.sleep(forTimeInterval: 0.3)
        let remaining = try #require(cascade.remainingScriptTime)
        #expect(remaining > .seconds(29.6) && remaining <= .seconds(30))
        let deadline = cascade.scriptDeadline
        Thread.sleep(forTimeInterval: 0.05)
        #expect(cascade.scriptDeadline == deadline)
        limits.scriptTime = nil
        #expect(SCXMLCascade(limits: limits).scriptDeadline == nil)
    }

    @Test("a session's location at SCXML's processor follows its identifier, decoded or changed")
    func scxmlLocationFollowsTheIdentifier() throws {
        var info = SCXMLSessionInfo(id: "first", name: nil)
        #expect(info.scxmlLocation == "#_scxml_first")
        info.id = "second"
        #expect(info.scxmlLocation == "#_scxml_second")
        let decoded = try JSONDecoder().decode(SCXMLSessionInfo.self, from: JSONEncoder().encode(info))
        #expect(decoded.scxmlLocation == "#_scxml_second")
        #expect(decoded == info)
    }
}
