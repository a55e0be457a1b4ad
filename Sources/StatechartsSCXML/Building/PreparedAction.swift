import Statecharts

/// An action of a block (entry, exit, a transition's actions) as the chart runs it, prepared once
/// when the chart is built (``SCXMLExecutor/runBlock(_:in:)``).
///
/// A `<send>` is kept in a class, from which the executor reads its attributes in place: taken
/// out of its ``SCXMLAction/Kind`` at every run, the element's many fields were copied and
/// released each time. The other actions run as they are.
enum PreparedAction: Sendable {
    /// A `<send>`.
    case send(PreparedSend)
    /// A `<cancel>` whose `sendid` is written out.
    case cancel(sendID: String)
    /// Any other action.
    case action(SCXMLAction)

    /// The actions of `block`, prepared.
    static func block(_ block: [SCXMLAction]) -> [PreparedAction] {
        block.map { action in
            switch action.kind {
            case .send(let send): .send(PreparedSend(send, location: action.location))
            case .cancel(let sendID?, nil): .cancel(sendID: sendID)
            default: .action(action)
            }
        }
    }
}

/// A `<send>` of a block, with where it is written: read in place by
/// ``SCXMLExecutor/send(_:in:)``.
final class PreparedSend: Sendable {
    /// The element.
    let send: SCXMLSend
    /// Where it is written.
    let location: SourcePosition
    /// For a `<send>` whose every attribute is written out, that sends its session a delayed
    /// event with no data (the timeouts of most documents: `<send event="tick" delay="1s"
    /// id="tick"/>`): the delay, and the event's name. Its event is then the same at every run
    /// in a session, which keeps it (``SCXMLContext/preparedEvents``).
    let literalDelay: Duration?

    init(_ send: SCXMLSend, location: SourcePosition) {
        self.send = send
        self.location = location
        let toItself =
            send.event != nil && send.eventExpression == nil && send.target == nil && send.targetExpression == nil
            && (send.type.map(SCXMLSend.scxmlProcessorTypes.contains) ?? true) && send.typeExpression == nil
            && send.idLocation == nil && send.delayExpression == nil
        let withoutData = send.content == nil && send.namelist.isEmpty && send.params.isEmpty
        literalDelay = toItself && withoutData ? send.delay.flatMap { $0 > .zero ? $0 : nil } : nil
    }
}
