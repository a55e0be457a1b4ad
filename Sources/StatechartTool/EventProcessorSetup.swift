#if Tools
import StatechartsSCXML

#if HTTP
import StatechartsHTTP
#endif

/// The event I/O processors a command was asked for, started, and how to stop them.
struct EventProcessorSetup {
    /// The processors, to give to sessions.
    var processors: [any SCXMLEventProcessor] = []
    private var stopping: [@Sendable () async -> Void] = []

    /// Starts the Basic HTTP Event I/O Processor on loopback when `http` is set.
    ///
    /// - Throws: ``CommandError`` when it cannot start, or this build of the tool has none.
    static func start(http: Bool) async throws -> EventProcessorSetup {
        var setup = EventProcessorSetup()
        guard http else { return setup }
        #if HTTP
        do {
            let processor = try await BasicHTTPEventProcessor.start()
            setup.processors.append(processor)
            setup.stopping.append { await processor.shutdown() }
        } catch {
            throw CommandError("the Basic HTTP Event I/O Processor cannot start: \(error)")
        }
        return setup
        #else
        throw CommandError(
            "this build of the tool has no Basic HTTP Event I/O Processor: build it with the package trait HTTP")
        #endif
    }

    /// Whether this build of the tool has the Basic HTTP Event I/O Processor.
    static var hasHTTP: Bool {
        #if HTTP
        return true
        #else
        return false
        #endif
    }

    /// Stops what was started.
    func stop() async {
        for stop in stopping { await stop() }
    }
}
#endif
