import Statecharts

extension StateMachine where State == String, Event == SCXMLEvent, Context == SCXMLContext {
    /// Readies the delayed sends that the chart holds as data (an `<onentry>` of one `<send>`
    /// with an `id`, written out in full: ``SCXMLChartBuilder/declaredSend(_:)``) for this
    /// machine's session: their events come from the session (their `origin` is its address, as
    /// the executor's are), and a state whose sends would leave more than `pendingTimers` timers
    /// pending runs the `<send>` itself, which raises `error.execution`. Every host of a
    /// document's machine calls it once the machine is made or restored.
    package mutating func prepareDeclaredSends(pendingTimers: Int) {
        let origin = context.info.scxmlLocation
        prepareDeclaredSends(timerLimit: pendingTimers) { event in
            var event = event
            event.origin = origin
            return event
        }
    }
}
