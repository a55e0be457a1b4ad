extension BluetoothConnection {
    /// Waits until every delay of `central` whose time has come has run, every report it has
    /// made is handled and every due timeout has fired: for tests and demos on a test clock, after
    /// each step of a script.
    ///
    /// It returns after a run of scheduler turns with nothing left to handle, or after about two
    /// seconds of real time if the central keeps reporting.
    public func settle(reportsOf central: SimulatedCentral) async {
        var quietTurns = 0
        for _ in 0..<10_000 {
            await timers.settle()
            if handledReportCount == deliveredReportCount && !central.hasDueDelays {
                quietTurns += 1
                if quietTurns == 8 { return }
                await Task.yield()
            } else {
                quietTurns = 0
                try? await Task.sleep(for: .microseconds(200))
            }
        }
    }
}
