import Statecharts
import Testing

@Suite struct ParallelTests {
    /// A parallel state `p` with regions `a` (a1, a2) and `b` (b1, b2), and states `x` and `y` outside.
    func chart(
        a1: [TestElement] = [], b1: [TestElement] = [], p: [TestElement] = []
    ) throws -> TestChart {
        try TestChart(initial: "p") {
            Parallel("p") {
                logged("p")
                p
                StateNode("a") {
                    logged("a")
                    StateNode("a1") {
                        logged("a1")
                        a1
                    }
                    StateNode("a2") { logged("a2") }
                }
                StateNode("b") {
                    logged("b")
                    StateNode("b1") {
                        logged("b1")
                        b1
                    }
                    StateNode("b2") { logged("b2") }
                }
            }
            StateNode("x") { logged("x") }
            StateNode("y") { logged("y") }
        }
    }

    @Test("entering a parallel state enters every region, in document order")
    func entersAllRegions() throws {
        let machine = try started(try chart())
        #expect(machine.context.entries == ["enter p", "enter a", "enter a1", "enter b", "enter b1"])
        #expect(machine.activeStates == ["a1", "b1"])
    }

    @Test(
        "every region reacts to the same event: exits in reverse document order, actions and entries in document order")
    func allRegionsReact() throws {
        let machine = try chart(
            a1: [
                .transition(
                    .events([.descriptor(EventDescriptor("t"))]), targets: ["a2"],
                    action: { $0.context.append("action a") })
            ],
            b1: [
                .transition(
                    .events([.descriptor(EventDescriptor("t"))]), targets: ["b2"],
                    action: { $0.context.append("action b") })
            ])
        var running = try started(machine)
        let log = try logged(&running) { try $0.send("t") }
        #expect(log == ["exit b1", "exit a1", "action a", "action b", "enter a2", "enter b2"])
        #expect(running.activeStates == ["a2", "b2"])
    }

    @Test("of two conflicting transitions in different regions, the first in document order wins")
    func conflictingRegionsDocumentOrder() throws {
        let t = TransitionTrigger<String>.events([.descriptor(EventDescriptor("t"))])
        var machine = try started(try chart(a1: [.transition(t, targets: ["x"])], b1: [.transition(t, targets: ["y"])]))
        try machine.send("t")
        #expect(machine.activeStates == ["x"])

        var inner = try started(try chart(a1: [.transition(t, targets: ["a2"])], b1: [.transition(t, targets: ["y"])]))
        try inner.send("t")
        #expect(
            inner.activeStates == ["a2", "b1"], "the region-local transition came first and preempts the one leaving p")

        var outer = try started(try chart(a1: [.transition(t, targets: ["x"])], b1: [.transition(t, targets: ["b2"])]))
        try outer.send("t")
        #expect(outer.activeStates == ["x"], "the transition leaving p came first and preempts the region-local one")
    }

    @Test("a transition of a region's state preempts a conflicting transition of an ancestor selected before it")
    func descendantPreemptsAncestor() throws {
        let t = TransitionTrigger<String>.events([.descriptor(EventDescriptor("t"))])
        var machine = try started(try chart(b1: [.transition(t, targets: ["b2"])], p: [.transition(t, targets: ["x"])]))
        // a1 selects p's transition (a has none), then b1 selects its own, whose source is a
        // descendant of p: p's transition is removed and b1's kept.
        let log = try logged(&machine) { try $0.send("t") }
        #expect(machine.activeStates == ["a1", "b2"])
        #expect(log == ["exit b1", "enter b2"])
    }

    @Test("an ancestor's transition selected by several regions is taken once")
    func sharedAncestorTransitionTakenOnce() throws {
        let t = TransitionTrigger<String>.events([.descriptor(EventDescriptor("t"))])
        var machine = try started(try chart(p: [.transition(t, targets: ["x"], action: { $0.context.counter += 1 })]))
        let log = try logged(&machine) { try $0.send("t") }
        #expect(machine.context.counter == 1)
        #expect(log == ["exit b1", "exit b", "exit a1", "exit a", "exit p", "enter x"])
    }

    @Test("targetless transitions in several regions never conflict")
    func targetlessTransitionsDoNotConflict() throws {
        let t = TransitionTrigger<String>.events([.descriptor(EventDescriptor("t"))])
        var machine = try started(
            try chart(
                a1: [.transition(t, action: { $0.context.append("a") })],
                b1: [.transition(t, action: { $0.context.append("b") })]))
        #expect(try logged(&machine) { try $0.send("t") } == ["a", "b"])
    }

    @Test("a transition into one region of an inactive parallel state enters the other regions by default")
    func enteringOneRegionEntersTheOthers() throws {
        let chart = try TestChart(initial: "idle") {
            StateNode("idle") { On("go", to: "b2") }
            Parallel("p") {
                StateNode("a") {
                    StateNode("a1") { logged("a1") }
                    StateNode("a2")
                }
                StateNode("b") {
                    StateNode("b1")
                    StateNode("b2") { logged("b2") }
                }
            }
        }
        var machine = try started(chart)
        #expect(try logged(&machine) { try $0.send("go") } == ["enter a1", "enter b2"])
    }

    /// Found by the differential runner (seed 3): a parallel state without child states was entered
    /// but, being neither atomic nor holding regions, could take no event or eventless transition.
    @Test("a parallel state without child states is atomic: it takes events and eventless transitions")
    func childlessParallelIsAtomic() throws {
        let chart = try TestChart(
            name: "childless",
            elements: [
                .state("a", elements: [.transition(.events([.descriptor(EventDescriptor("go"))]), targets: ["p"])]),
                .state(
                    "p", kind: .parallel,
                    elements: [.transition(.events([.descriptor(EventDescriptor("go"))]), targets: ["q"])]),
                .state("q", kind: .parallel, elements: [.transition(.eventless, targets: ["end"])]),
                .state("end"),
            ])
        var machine = try started(chart)
        try machine.send("go")
        #expect(machine.activeStates == ["p"])
        #expect(chart.kind(of: "p") == .parallel, "the structure keeps what was written")
        try machine.send("go")
        #expect(machine.activeStates == ["end"], "q took its eventless transition at once")
    }
}
