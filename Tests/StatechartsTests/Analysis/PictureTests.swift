import Statecharts
import Testing

/// Mermaid and Graphviz pictures of a chart with every kind of state and transition.
@Suite struct PictureTests {
    static let always: StatechartGuard<String, NamedEvent, Log> = { _ in true }

    func chart() throws -> TestChart {
        try TestChart(
            name: "device",
            elements: [
                .state(
                    "idle", elements: [.transition(.events([.descriptor(EventDescriptor("power"))]), targets: ["on"])]),
                .state(
                    "on", kind: .parallel,
                    elements: [
                        .state(
                            "link", initial: ["searching"],
                            elements: [
                                .history("last", type: .deep, defaultTargets: ["searching"]),
                                .state(
                                    "searching",
                                    elements: [
                                        .transition(.after(.seconds(10)), targets: ["lost"]),
                                        .transition(
                                            .events([.descriptor(EventDescriptor("found"))]), targets: ["linked"],
                                            guard: Self.always),
                                    ]),
                                .state(
                                    "linked",
                                    elements: [.transition(.eventless, targets: ["searching"], guard: Self.always)]),
                                .state("lost", kind: .final),
                            ]),
                        .state(
                            "light",
                            elements: [
                                .state(
                                    "blinking",
                                    elements: [
                                        .transition(.events([.descriptor(EventDescriptor("tick"))]), targets: [])
                                    ])
                            ]),
                        .transition(.done, targets: ["idle"]),
                    ]),
                .state(
                    "sleep state",
                    elements: [.transition(.events([.descriptor(EventDescriptor("wake"))]), targets: ["last"])]),
            ])
    }

    @Test("Mermaid: composite and parallel blocks, [*] for initial and final states, H* for deep history, labels")
    func mermaid() throws {
        #expect(
            try chart().mermaid() == """
                stateDiagram-v2
                    idle
                    state on {
                        state link {
                            state "H*" as last
                            searching
                            linked
                            lost
                            [*] --> searching
                            last --> searching
                            lost --> [*]
                            searching --> lost : after 10s
                            searching --> linked : found [guard]
                            linked --> searching : [guard]
                        }
                        --
                        state light {
                            blinking
                            [*] --> blinking
                            blinking --> blinking : tick (no target)
                        }
                    }
                    state "sleep state" as sleep_state
                    [*] --> idle
                    idle --> on : power
                    on --> idle : done
                    sleep_state --> last : wake

                """)
    }

    @Test("Graphviz: clusters, a dashed one for the parallel state, shapes for initial, final and history states")
    func dot() throws {
        let dot = try chart().dot()
        #expect(dot.hasPrefix("digraph \"device\" {\n    compound=true;\n"))
        #expect(dot.contains("subgraph \"cluster_on\" {\n        label=\"on\";\n        style=\"rounded,dashed\";"))
        #expect(dot.contains("subgraph \"cluster_link\" {\n            label=\"link\";\n            style=rounded;"))
        #expect(dot.contains("\"lost\" [shape=doublecircle, label=\"lost\", width=0.3];"))
        #expect(dot.contains("\"last\" [shape=circle, label=\"H*\", width=0.3];"))
        #expect(dot.contains("\"idle\" -> \"on\" [label=\"power\", lhead=\"cluster_on\"];"))
        #expect(dot.contains("\"on\" -> \"idle\" [label=\"done\", ltail=\"cluster_on\"];"))
        #expect(dot.contains("\"searching\" -> \"lost\" [label=\"after 10s\"];"))
        #expect(dot.contains("\"sleep state\" -> \"last\" [label=\"wake\"];"))
        #expect(dot.hasSuffix("}\n"))
    }

    @Test("names that are not Mermaid identifiers get unique ones, with the name as the label")
    func identifiers() throws {
        let chart = try TestChart(
            name: "names",
            elements: [
                .state("a-b", elements: [.transition(.events([.descriptor(EventDescriptor("x"))]), targets: ["a.b"])]),
                .state(
                    "a.b", elements: [.transition(.events([.descriptor(EventDescriptor("x"))]), targets: ["state"])]),
                .state(
                    "state", elements: [.transition(.events([.descriptor(EventDescriptor("x"))]), targets: ["a-b"])]),
            ])
        let mermaid = chart.mermaid()
        #expect(mermaid.contains("state \"a-b\" as a_b\n"))
        #expect(mermaid.contains("state \"a.b\" as a_b_2\n"))
        #expect(mermaid.contains("state \"state\" as state_2\n"))
        #expect(mermaid.contains("a_b --> a_b_2 : x\n"))
    }

    @Test("SVG: every state a group with data-state, children inside their parent's group and box, kinds as classes")
    func svg() throws {
        let svg = try chart().svg()
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        for name in ["idle", "on", "link", "searching", "linked", "lost", "light", "blinking", "last", "sleep state"] {
            #expect(svg.contains("data-state=\"\(name)\""), "no group for \(name)")
        }
        #expect(svg.contains("<g class=\"state parallel\" data-state=\"on\">"))
        #expect(svg.contains("<g class=\"state final\" data-state=\"lost\">"))
        #expect(svg.contains("<g class=\"state history\" data-state=\"last\">"))
        #expect(svg.contains(">H*</text>"))
        #expect(svg.contains("<g class=\"state chart\" data-chart=\"device\">"))
        // Nesting: searching's group opens after link's and before link's closes.
        let link = try #require(svg.range(of: "data-state=\"link\""))
        let searching = try #require(svg.range(of: "data-state=\"searching\""))
        let light = try #require(svg.range(of: "data-state=\"light\""))
        #expect(link.lowerBound < searching.lowerBound && searching.lowerBound < light.lowerBound)
        // The labels of the transitions.
        for label in ["power", "after 10s", "found [guard]", "done", "[guard]", "tick (no target)", "wake"] {
            #expect(svg.contains(">\(label)</text>"), "no label \(label)")
        }
        // Each child's box lies inside its parent's.
        func box(_ name: String) throws -> (x: Double, y: Double, width: Double, height: Double) {
            let group = try #require(svg.range(of: "data-state=\"\(name)\">"))
            let rest = svg[group.upperBound...]
            let rect = try #require(rest.range(of: "<rect "))
            let end = try #require(rest[rect.upperBound...].range(of: "/>"))
            let attributes = rest[rect.upperBound..<end.lowerBound]
            func value(_ key: String) throws -> Double {
                let start = try #require(attributes.range(of: "\(key)=\""))
                let stop = try #require(attributes[start.upperBound...].firstIndex(of: "\""))
                return try #require(Double(attributes[start.upperBound..<stop]))
            }
            return (try value("x"), try value("y"), try value("width"), try value("height"))
        }
        for (child, parent) in [("searching", "link"), ("link", "on"), ("light", "on"), ("blinking", "light")] {
            let inner = try box(child)
            let outer = try box(parent)
            #expect(inner.x > outer.x && inner.y > outer.y, "\(child) starts outside \(parent)")
            #expect(
                inner.x + inner.width < outer.x + outer.width && inner.y + inner.height < outer.y + outer.height,
                "\(child) ends outside \(parent)")
        }
    }

    @Test("SVG escapes names: <, &, quotes")
    func svgEscapes() throws {
        let chart = try TestChart(
            name: "a<b", elements: [.state("x&\"y\""), .state("<z>")])
        let svg = chart.svg()
        #expect(svg.contains("data-state=\"x&amp;&quot;y&quot;\""))
        #expect(svg.contains("data-state=\"&lt;z&gt;\""))
        #expect(svg.contains("data-chart=\"a&lt;b\""))
        #expect(!svg.contains("<z>"))
    }
}
