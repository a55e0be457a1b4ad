import Statecharts
import Testing

@Suite struct ChartValidationTests {
    /// The problems of a chart that must not build.
    func problems(_ elements: [TestElement], initial: [String] = []) -> [ChartProblem] {
        do {
            _ = try TestChart(name: "chart", initial: initial, elements: elements)
            Issue.record("the chart built")
            return []
        } catch {
            return error.problems
        }
    }

    func messages(_ elements: [TestElement], initial: [String] = []) -> [String] {
        problems(elements, initial: initial).map(\.message)
    }

    @Test("a chart without states is invalid")
    func emptyChart() {
        #expect(messages([]) == ["the chart 'chart' has no states"])
    }

    @Test("a duplicate state is reported with where it was first declared")
    func duplicateState() {
        let first = SourcePosition(file: "A.swift", line: 3, column: 5)
        let second = SourcePosition(file: "A.swift", line: 9, column: 5)
        let found = problems([.state("a", location: first), .state("b", elements: [.state("a", location: second)])])
        #expect(found.map(\.code) == [.duplicateState])
        #expect(found.first?.message == "the state 'a' is declared more than once (first declared at A.swift:3:5)")
        #expect(found.first?.location == second)
        #expect(
            found.first?.description
                == "A.swift:9:5: error: the state 'a' is declared more than once (first declared at A.swift:3:5)")
    }

    @Test("an unknown target is reported with the transition that names it")
    func unknownTarget() {
        #expect(
            messages([
                .state(
                    "a", elements: [.transition(.events([.descriptor(EventDescriptor("go"))]), targets: ["nowhere"])])
            ])
                == ["the transition on 'go' from 'a' targets 'nowhere', which is not a state of the chart"])
        #expect(
            messages([.state("a")], initial: ["b"]) == [
                "the initial state of the chart targets 'b', which is not a state of the chart"
            ])
    }

    @Test("initial states must be descendants, and only compound states have one")
    func invalidInitial() {
        #expect(
            messages([.state("p", initial: ["q"], elements: [.state("p1")]), .state("q")])
                == ["the initial state 'q' of 'p' is not one of its descendants"])
        #expect(messages([.state("a", initial: ["a"])]) == ["the state 'a' has an initial state but no child states"])
        #expect(
            messages([.state("p", kind: .parallel, initial: ["x"], elements: [.state("x")])])
                == ["the parallel state 'p' has an initial state; all of a parallel state's regions are entered"])
        #expect(
            messages([.state("p", initial: ["x"], elements: [.initial(["x"]), .state("x")])])
                == ["the state 'p' has both an initial argument and an Initial element; give one"])
    }

    @Test("several targets must lie in different regions of a parallel state")
    func incompatibleTargets() {
        let elements: [TestElement] = [
            .state("a", elements: [.transition(.events([.descriptor(EventDescriptor("go"))]), targets: ["x", "y"])]),
            .state("p", elements: [.state("x"), .state("y")]),
        ]
        #expect(
            messages(elements) == [
                "the targets of the transition on 'go' from 'a' include 'x' and 'y', which cannot be active at the same time"
            ])
        #expect(
            messages([.state("p", elements: [.state("x", elements: [.state("y")])])], initial: ["x", "y"])
                == ["the initial states of the chart include 'x' and 'y', which cannot be active at the same time"])
    }

    @Test("a history state must belong to a compound or parallel state, with a default among its parent's descendants")
    func invalidHistory() {
        #expect(
            messages([.state("a"), .history("h")])
                == [
                    "the history state 'h' is at the top of the chart; a history state belongs to a compound or parallel state"
                ])
        #expect(
            messages([.state("p", elements: [.history("h", defaultTargets: ["q"]), .state("p1")]), .state("q")])
                == ["the default 'q' of the history state 'h' is not a descendant of 'p'"])
        #expect(
            messages([.state("p", initial: ["h"], elements: [.history("h"), .state("p1")])])
                == ["the history state 'h' is the initial state of 'p' but has no default of its own"])
    }

    @Test("a compound state needs child states besides history states")
    func noChildStates() {
        #expect(
            problems([.state("p", elements: [.history("h")])]).map(\.code) == [.noChildStates, .invalidHistory])
    }

    @Test("a final state has neither transitions nor children")
    func invalidFinal() {
        #expect(
            messages([
                .state("a"),
                .state(
                    "f", kind: .final,
                    elements: [.transition(.events([.descriptor(EventDescriptor("go"))]), targets: ["a"]), .state("g")]),
            ]) == [
                "the final state 'f' has transitions; a final state cannot be left by its own transitions",
                "the final state 'f' has child states; a final state is atomic",
            ])
    }

    @Test("entry actions and timeouts cannot be at the top of the chart, which is never entered")
    func misplacedAtTop() {
        #expect(
            messages([.state("a"), .onEntry { _ in }])
                == [
                    "an entry action is at the top of the chart 'chart', which is never entered or exited; put it in a state"
                ])
        #expect(
            messages([.state("a"), .transition(.after(.seconds(1)), targets: ["a"])])
                == ["a timeout is at the top of the chart 'chart', which is never entered to arm it; put it in a state"]
        )
    }

    @Test("a timeout's delay cannot be negative, and a transition on events must name one")
    func badTriggers() {
        #expect(
            messages([.state("a", elements: [.transition(.after(.seconds(-1)), targets: ["a"])])])
                == ["the transition after -1.0 seconds from 'a' has a negative delay (-1.0 seconds)"])
        #expect(
            messages([.state("a", elements: [.transition(.events([]), targets: ["a"])])])
                == ["the transition on '' from 'a' names no event; use Always for an eventless transition"])
    }

    @Test("a completion transition in a state that cannot complete is reported")
    func unreachableCompletion() {
        #expect(
            messages([.state("a", elements: [.transition(.done, targets: ["a"])])])
                == [
                    "the completion transition from 'a' can never be taken: 'a' has no child states, so it never completes"
                ])
    }

    @Test("nesting deeper than the limit is reported, not followed")
    func nestingTooDeep() {
        var element = TestElement.state("leaf")
        for depth in (0..<20).reversed() { element = .state("s\(depth)", elements: [element]) }
        do {
            _ = try TestChart(name: "deep", elements: [element], maximumDepth: 10)
            Issue.record("the chart built")
        } catch {
            #expect(error.problems.map(\.code) == [.nestingTooDeep])
            #expect(error.problems.first?.message == "states are nested more than 10 deep at 's10'")
        }
    }

    @Test("all problems are reported at once, in document order")
    func allProblemsAtOnce() {
        let found = problems([
            .state("a", elements: [.transition(.events([.descriptor(EventDescriptor("x"))]), targets: ["missing"])]),
            .state("a"),
            .state("f", kind: .final, elements: [.transition(.eventless, targets: ["a"])]),
        ])
        #expect(found.map(\.code) == [.duplicateState, .invalidFinalState, .unknownTarget])
    }

    @Test("problems in a chart built with the builder point at the Swift source")
    func builderLocations() {
        do {
            _ = try TestChart {
                StateNode("a") { On("go", to: "nowhere") }
            }
            Issue.record("the chart built")
        } catch {
            let location = error.problems.first?.location
            #expect(location?.file.hasSuffix("ChartValidationTests.swift") == true)
            #expect(location?.line == #line - 6)
            #expect(
                error.description.hasPrefix(
                    "The chart is invalid (1 problem):\n  StatechartsTests/ChartValidationTests.swift:"))
        }
    }
}
