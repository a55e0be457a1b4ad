import Foundation
import Statecharts

extension SCXMLSession {
    /// How a session runs.
    public struct Options: Sendable {
        /// The top session's identifier (SCXML's `_sessionid`); a new UUID by default. Invoked
        /// sessions get this identifier with a number after it.
        public var sessionID: String
        /// What ``SCXMLSession/send(_:)`` does with an event no transition of the top session
        /// handles.
        public var unhandledEvents: UnhandledEventPolicy
        /// What the documents may take: script time and microsteps per cascade, invocation depth,
        /// sessions, JavaScript heap, `<foreach>` items, pending timers, document size. Documents
        /// are untrusted: loosen a limit for trusted ones only.
        public var limits: SCXMLLimits
        /// The data models invoked documents may use; `nil` for the built-in ones and the chart's own.
        public var dataModels: [any SCXMLDataModel.Type]?
        /// The event I/O processors besides SCXML's that sessions can send through and receive
        /// from; none by default, so that a document reaches nothing outside the process unless
        /// the one who runs it says so.
        public var eventProcessors: [any SCXMLEventProcessor]
        /// Swift work that `<invoke>` runs, by the `type` that names it (see ``SCXMLInvoker``); none
        /// by default. An `<invoke>` of a type that is neither SCXML nor here raises
        /// `error.execution`.
        public var invokers: [String: SCXMLInvoker]
        /// The Swift code of the guards documents name (a transition's `sc:guard`, see
        /// ``SCXMLNamedGuard``), by name; none by default. A named guard without code here is an
        /// error when it is evaluated: the transition is not taken.
        public var guards: [String: SCXMLNamedGuard]
        /// The Swift code of the actions documents name (`<sc:action>`, see ``SCXMLNamedAction``), by
        /// name; none by default. A named action without code here does nothing.
        public var actions: [String: SCXMLNamedAction]
        /// Whether each ``SCXMLStep`` lists the top session's microsteps.
        public var recordsMicrosteps: Bool
        /// Where every session's `<log>` records go as they are written, besides each
        /// ``SCXMLStep``; `nil` for nowhere else.
        public var log: (@Sendable (SCXMLLogRecord) -> Void)?

        /// Options with their defaults, changed by the arguments given.
        public init(
            sessionID: String = UUID().uuidString, unhandledEvents: UnhandledEventPolicy = .ignore,
            limits: SCXMLLimits = .default, dataModels: [any SCXMLDataModel.Type]? = nil,
            eventProcessors: [any SCXMLEventProcessor] = [], invokers: [String: SCXMLInvoker] = [:],
            guards: [String: SCXMLNamedGuard] = [:], actions: [String: SCXMLNamedAction] = [:],
            recordsMicrosteps: Bool = false,
            log: (@Sendable (SCXMLLogRecord) -> Void)? = nil
        ) {
            self.sessionID = sessionID
            self.unhandledEvents = unhandledEvents
            self.limits = limits
            self.dataModels = dataModels
            self.eventProcessors = eventProcessors
            self.invokers = invokers
            self.guards = guards
            self.actions = actions
            self.recordsMicrosteps = recordsMicrosteps
            self.log = log
        }
    }

    /// Opens a session at every processor.
    static func open(_ id: String, at processors: [any SCXMLEventProcessor]) -> [SCXMLProcessorEntry] {
        processors.map { SCXMLProcessorEntry(types: $0.types, location: $0.open(session: id)) }
    }

    /// Warnings for the `<send>` elements of a document whose `type` names an event I/O processor
    /// the session does not have: each raises `error.execution` when it runs.
    static func missingProcessors(in chart: SCXMLChart, have processors: [any SCXMLEventProcessor]) -> [SCXMLDiagnostic]
    {
        var problems: [SCXMLDiagnostic] = []
        let available = Set(processors.flatMap(\.types)).union(SCXMLSend.scxmlProcessorTypes)
        func visit(_ actions: [SCXMLAction]) {
            for action in actions {
                switch action.kind {
                case .send(let send):
                    if let type = send.type, SCXMLSend.basicHTTPProcessorTypes.contains(type),
                        !available.contains(type)
                    {
                        problems.append(
                            SCXMLDiagnostic(
                                .warning,
                                "this <send> needs the Basic HTTP Event I/O Processor, which the session was not given; it raises error.execution",
                                at: action.location, kind: .unsupported))
                    }
                case .if(let branches):
                    for branch in branches { visit(branch.actions) }
                case .foreach(_, _, _, let body):
                    visit(body)
                default:
                    break
                }
            }
        }
        chart.document.forEachActionBlock(visit)
        return problems
    }
}
