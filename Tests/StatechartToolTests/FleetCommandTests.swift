#if Tools
#if Store
import Foundation
import Statecharts
import StatechartsStore
import Testing

/// `statechart fleet` on a store a fleet wrote: the machines by state, one machine, dead letters
/// and their retry.
@Suite struct FleetCommandTests {
    enum Light: String, Hashable, Codable, Sendable { case off, on }

    enum Switch: StatechartEvent, Codable, Hashable, Sendable {
        case flip
        enum Kind: Hashable, Sendable { case flip }
        var kind: Kind { .flip }
    }

    struct Flips: Codable, Sendable { var count = 0 }

    /// A light that, on each flip, tells a service outside the fleet.
    static func chart() throws -> Statechart<Light, Switch, Flips> {
        try Statechart("light", initial: .off) {
            StateNode(.off) { On(.flip, to: .on, action: tell) }
            StateNode(.on) { On(.flip, to: .off, action: tell) }
        }
    }

    static func tell(_ scope: inout Scope<Light, Switch, Flips>) {
        scope.context.count += 1
        scope.send(.flip, to: "https://lights.example/log", type: "http")
    }

    struct Unreachable: Error, CustomStringConvertible {
        var description: String { "lights.example is unreachable" }
    }

    /// A store with two lights on and one off, whose first flip's effect is a dead letter.
    static func store(
        deliveredTo delivered: Locked<[String]>, reachable: Locked<Bool>
    ) throws
        -> (path: String, fleet: DurableMachines<Light, Switch, Flips>)
    {
        let path = try CommandLine.temporaryDirectory().appendingPathComponent("lights.sqlite").path
        let fleet = try DurableMachines(
            chart: chart(), store: try SQLiteMachineStore(path: path),
            options: DurableOptions(retry: RetryPolicy(maximumAttempts: 1)),
            deliver: { delivery in
                guard reachable.withLock({ $0 }) else { throw Unreachable() }
                delivered.withLock { $0.append(delivery.key.description) }
            }
        ) { _ in Flips() }
        return (path, fleet)
    }

    @Test("lists machines by state, shows one, and a dead letter it retries is delivered with its key")
    func fleet() async throws {
        let delivered = Locked([String]())
        let reachable = Locked(false)
        let (path, fleet) = try Self.store(deliveredTo: delivered, reachable: reachable)
        try await fleet.send(.flip, to: "hall")
        try await fleet.drain()
        reachable.withLock { $0 = true }
        try await fleet.send(.flip, to: "porch")
        try await fleet.send(.flip, to: "attic")
        try await fleet.send(.flip, to: "attic")
        try await fleet.drain()

        let summary = try await CommandLine.run(["fleet", path])
        #expect(summary.status == 0, "\(summary.standardError)")
        let lines = summary.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "3 machines")
        #expect(lines.contains("  2\t[on]\trunning"))
        #expect(lines.contains("  1\t[off]\trunning"))
        #expect(lines.contains("dead letters: 1"))
        #expect(
            lines.contains {
                $0.hasPrefix("  hall/2/0\tsend\tdead, 1 attempts, last error: lights.example is unreachable")
            })

        let json = try await CommandLine.run(["fleet", "sqlite:" + path, "--json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["machines"] as? Int == 3)
        #expect(object["deadLetterCount"] as? Int == 1)
        let letters = try #require(object["deadLetters"] as? [[String: Any]])
        #expect(letters.first?["key"] as? String == "hall/2/0")

        let hall = try await CommandLine.run(["fleet", path, "--machine", "hall"])
        #expect(hall.status == 0)
        #expect(hall.standardOutput.hasPrefix("machine hall: [on] (running)\n"))
        // Times in the machine's time, since its first event was acknowledged.
        #expect(hall.standardOutput.contains(/\n  #1\tstart at \d+\.\d{3} s\n/))
        #expect(hall.standardOutput.contains(/\n  #2\tevent at \d+\.\d{3} s id [-0-9A-F]+\t\{"flip":\{\}\}\n/))
        #expect(hall.standardOutput.contains("outbox: 1\n  hall/2/0\tsend\tdead"))

        let retried = try await CommandLine.run(["fleet", path, "--retry", "hall/2/0"])
        #expect(retried.status == 0, "\(retried.standardError)")
        #expect(retried.standardOutput == "hall/2/0 is due again: the next worker delivers it, under the same key\n")
        try await fleet.drain()
        #expect(delivered.withLock { $0 }.sorted() == ["attic/2/0", "attic/3/0", "hall/2/0", "porch/2/0"])
        #expect(try await fleet.deadLetters().isEmpty)

        let again = try await CommandLine.run(["fleet", path, "--retry", "hall/2/0"])
        #expect(again.status != 0)
        #expect(again.standardError.contains("the store has no dead letter 'hall/2/0'"))
    }

    @Test("never creates a store, refuses keys that are not keys, and escapes what the store holds")
    func hostileInput() async throws {
        let folder = try CommandLine.temporaryDirectory()
        let missing = folder.appendingPathComponent("none.sqlite").path
        let result = try await CommandLine.run(["fleet", missing])
        #expect(result.status != 0)
        #expect(result.standardError.contains("the file does not exist"))
        #expect(!FileManager.default.fileExists(atPath: missing))

        let folderAsStore = try await CommandLine.run(["fleet", folder.path])
        #expect(folderAsStore.status != 0)

        let badKey = try await CommandLine.run(["fleet", missing, "--retry", "hall/two/0"])
        #expect(badKey.status == 64)
        #expect(badKey.standardError.contains("is not an effect key"))

        // A machine named with a terminal control sequence and a line feed reaches the terminal
        // escaped, on one line.
        let (path, fleet) = try Self.store(deliveredTo: Locked([]), reachable: Locked(true))
        try await fleet.send(.flip, to: "evil\u{1B}[2J\nforged")
        try await fleet.drain()
        let shown = try await CommandLine.run(["fleet", path, "--machine", "evil\u{1B}[2J\nforged"])
        #expect(shown.status == 0, "\(shown.standardError)")
        #expect(!shown.standardOutput.contains("\u{1B}"))
        #expect(shown.standardOutput.split(separator: "\n").first?.hasPrefix("machine evil") == true)
        #expect(!shown.standardOutput.contains("\nforged"))
    }
}
#endif
#endif
