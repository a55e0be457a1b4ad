import Statecharts
import Testing

@Suite struct EventDescriptorTests {
    @Test(
        "a descriptor matches names whose tokens start with its tokens",
        arguments: [
            ("error", "error", true), ("error", "error.execution", true), ("error", "errors", false),
            ("error.execution", "error", false), ("error.*", "error.send", true), ("error.", "error.x", true),
            ("*", "anything.at.all", true), ("*", "", true), ("", "a", false), ("a.b", "a.b.c", true),
            ("a.b", "a.bc", false),
        ])
    func matching(descriptor: String, name: String, matches: Bool) {
        #expect(EventDescriptor(descriptor).matches(name) == matches)
    }

    @Test("a descriptor list is split at whitespace, as SCXML's event attribute")
    func lists() {
        #expect(EventDescriptor.list(["a b", " c\td "]).map(\.pattern) == ["a", "b", "c", "d"])
        #expect(EventDescriptor("done.state.*").pattern == "done.state")
    }
}
