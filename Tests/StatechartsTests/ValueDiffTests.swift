import Foundation
import Testing

@testable import StatechartsTesting

private struct Track: Equatable {
    var duration: Double
    var position: Double
}

private struct Player: Equatable {
    var title: String
    var track: Track
    var queue: [String]
    var tags: Set<Int>
    var volume: Int?
}

/// A node of a list that refers back to itself: what a context of classes may hold.
private final class Link: Equatable {
    var value: Int
    var next: Link?
    var previous: Link?
    init(_ value: Int) { self.value = value }
    static func == (left: Link, right: Link) -> Bool { left === right }
}

private enum Phase: Equatable {
    case idle
    case playing(at: Double, looping: Bool)
}

@Suite("The tester's diff of expected and actual values")
struct ValueDiffTests {
    private let player = Player(
        title: "Ode", track: Track(duration: 180, position: 2), queue: ["a", "b", "c"], tags: [3, 1], volume: 4)

    @Test("equal values have no difference")
    func equal() {
        #expect(ValueDiff.lines(player, player) == nil)
    }

    @Test("a changed field is marked on its own line, inside its unchanged parents, the rest folded")
    func nestedField() {
        var moved = player
        moved.track.position = 1
        #expect(
            ValueDiff.lines(player, moved) == """
                  Player(
                    title: "Ode",
                    track: Track(
                      duration: 180.0,
                −     position: 2.0
                +     position: 1.0
                    ),
                    queue: […],
                    tags: Set([…]),
                    volume: 4
                  )
                """)
    }

    @Test("elements of a collection: the common ones stay, the others are removed or added")
    func collection() {
        var changed = player
        changed.queue = ["a", "c", "d"]
        let lines = ValueDiff.lines(player, changed)?.split(separator: "\n").map(String.init) ?? []
        #expect(lines.contains("      [0]: \"a\","))
        #expect(lines.contains("−     [1]: \"b\","))
        #expect(lines.contains("      [1]: \"c\","))
        #expect(lines.contains("+     [2]: \"d\""))
        #expect(lines.filter { $0.hasPrefix("−") || $0.hasPrefix("+") }.count == 2)
    }

    @Test("sets are written in a stable order, so that equal sets are never a difference")
    func sets() {
        var other = player
        other.tags = [1, 3]
        #expect(ValueDiff.lines(player, other) == nil)
        other.tags = [1, 2, 3]
        let lines = ValueDiff.lines(player, other)?.split(separator: "\n").map(String.init) ?? []
        #expect(lines.contains("+     2,"))
    }

    @Test("optionals, enums with payloads and strings are written as Swift literals")
    func literals() {
        var silent = player
        silent.volume = nil
        #expect(ValueDiff.lines(player, silent)?.contains("−   volume: 4\n+   volume: nil") == true)
        let text = ValueDiff.lines(Phase.idle, Phase.playing(at: 2.5, looping: true))
        #expect(text == "− .idle\n+ .playing(\n+   at: 2.5,\n+   looping: true\n+ )")
        #expect(ValueDiff.lines("a \"b\"", "c") == "− \"a \\\"b\\\"\"\n+ \"c\"")
    }

    @Test("values of the standard library are written by their description")
    func standardLibrary() {
        #expect(ValueDiff.lines(Duration.seconds(1), Duration.seconds(2)) == "− 1.0 seconds\n+ 2.0 seconds")
    }

    @Test("an object met again inside itself is written once, and the diff ends")
    func cycles() {
        let first = Link(1)
        let second = Link(2)
        first.next = second
        second.previous = first
        let other = Link(3)
        let text = ValueDiff.lines(first, other) ?? ""
        #expect(text.contains("previous: Link(↩︎)"))
        #expect(text.contains("+   value: 3"))
    }

    @Test("long collections are compared place by place, and a wide value is cut at the node limit")
    func bounds() {
        let long = Array(0..<5_000)
        var changed = long
        changed[2_500] = -1
        let lines = ValueDiff.lines(long, changed)?.split(separator: "\n").map(String.init) ?? []
        #expect(lines.filter { $0.hasPrefix("−") || $0.hasPrefix("+") } == ["−   [2500]: 2500,", "+   [2500]: -1,"])
        let wide = Array(repeating: [1, 2, 3], count: 60_000)
        var wider = wide
        wider[59_999] = [4]
        #expect(ValueDiff.lines(wide, wider) != nil, "past the node limit the rest is written by its description")
    }

    @Test("Foundation's values are written by their description, on Linux too")
    func foundation() {
        let text = ValueDiff.lines(Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 60)) ?? ""
        #expect(text.hasPrefix("− 1970-01-01 00:00:00"))
        #expect(!text.contains("_time"))
    }
}
