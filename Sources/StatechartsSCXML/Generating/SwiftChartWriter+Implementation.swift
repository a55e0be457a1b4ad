import Statecharts

/// What a design names and leaves to the app's code: named actions (`<sc:action name="…">`),
/// named guards (a transition's `sc:guard`) and named delays (an `after` timer of a name, whose
/// `<send>` event is `xstate.after.NAME.STATE`), as ``XStateImporter`` writes them. The generated
/// chart asks the app for them through a protocol, `Implementation`, so that the compiler tells
/// the app what its design asks for.
extension SwiftChartWriter {
    /// One thing the design names.
    struct NamedItem {
        enum Kind: String {
            case action, `guard`, delay
        }

        var kind: Kind
        /// The name in the design.
        var name: String
        /// The protocol member's name.
        var member: String
        /// Where the design first uses it.
        var location: SourcePosition
        /// Whether some use of it gives parameters: the member then takes them, as JSON text.
        var hasParameters: Bool
    }

    /// A named action of the project's namespace: its name and parameters.
    static func namedAction(_ element: SCXMLForeignElement) -> (name: String, parameters: String?)? {
        guard element.namespace == SCXMLExtensions.namespace, element.localName == "action",
            let name = element.attribute("name")
        else { return nil }
        return (name, element.attribute("params"))
    }

    /// A transition's named guard: its name and parameters.
    static func namedGuard(_ transition: SCXMLTransition) -> (name: String, parameters: String?)? {
        let ours = transition.extensions.attributes.filter { $0.namespace == SCXMLExtensions.namespace }
        guard let name = ours.first(where: { $0.name.hasSuffix(":guard") })?.value else { return nil }
        return (name, ours.first { $0.name.hasSuffix(":guard-params") }?.value)
    }

    /// The name of the delay of an `after` timer whose delay is named, not a number of
    /// milliseconds: `paymentTimeout` of `xstate.after.paymentTimeout.checkout.payment`.
    static func namedDelay(of send: SCXMLSend, in stateIDs: Set<String>) -> String? {
        guard let event = send.event, event == send.id, event.hasPrefix("xstate.after."), send.target == nil,
            send.type == nil
        else { return nil }
        let rest = event.dropFirst("xstate.after.".count)
        guard let dot = rest.firstIndex(of: "."), stateIDs.contains(String(rest[rest.index(after: dot)...])) else {
            return nil
        }
        let name = String(rest[..<dot])
        return Double(name) == nil ? name : nil
    }

    /// Finds what the design names, and names each protocol member.
    mutating func nameImplementation() {
        var found: [String: Int] = [:]
        var members: [String: (item: String, location: SourcePosition)] = [:]
        func add(_ kind: NamedItem.Kind, _ name: String, parameters: Bool, at location: SourcePosition) {
            let key = "\(kind.rawValue) \(name)"
            if let index = found[key] {
                if parameters { implementation[index].hasParameters = true }
                return
            }
            guard let member = SwiftNaming.caseName(name), !Self.reservedMembers.contains(member) else {
                report(
                    "the \(kind.rawValue) '\(name)' cannot be named in Swift as a member of the generated Implementation; rename it",
                    at: location)
                return
            }
            if let earlier = members[member] {
                report(
                    "the \(kind.rawValue) '\(name)' and the \(earlier.item) (\(earlier.location)) would both be Implementation.\(member); rename one",
                    at: location)
                return
            }
            members[member] = ("\(kind.rawValue) '\(name)'", location)
            found[key] = implementation.count
            implementation.append(
                NamedItem(kind: kind, name: name, member: member, location: location, hasParameters: parameters))
        }
        let stateIDs = Set(stateOrder)
        func visit(_ actions: [SCXMLAction]) {
            for action in actions {
                switch action.kind {
                case .foreign(let element):
                    if let (name, parameters) = Self.namedAction(element) {
                        add(.action, name, parameters: parameters != nil, at: action.location)
                    }
                case .send(let send):
                    if let name = Self.namedDelay(of: send, in: stateIDs) {
                        add(.delay, name, parameters: false, at: action.location)
                    }
                case .if(let branches): branches.forEach { visit($0.actions) }
                case .foreach(_, _, _, let body): visit(body)
                default: continue
                }
            }
        }
        func visit(_ transition: SCXMLTransition) {
            if let (name, parameters) = Self.namedGuard(transition) {
                add(.guard, name, parameters: parameters != nil, at: transition.location)
            }
            visit(transition.actions)
        }
        func visit(_ node: SCXMLNode) {
            for block in node.onEntry { visit(block.actions) }
            for block in node.onExit { visit(block.actions) }
            if let initial = node.initialTransition { visit(initial) }
            for transition in node.transitions { visit(transition) }
            node.children.forEach(visit)
        }
        document.states.forEach(visit)
        document.transitions.forEach(visit)
    }

    /// Names a conforming type has already, or that Swift reserves for the protocol.
    static let reservedMembers: Set<String> = ["Context", "init", "Type", "Protocol", "self", "Self"]

    /// The member for `kind` named `name`.
    func implementationMember(_ kind: NamedItem.Kind, _ name: String) -> NamedItem? {
        implementation.first { $0.kind == kind && $0.name == name }
    }

    /// `#sourceLocation(file:"NAME.scxml",line:N)`, so that what the compiler says of the next
    /// line is said at the design's place (the document's file name, as the file's header names it,
    /// so that the same document gives the same text wherever it is); nothing for a file name that
    /// a plain string literal cannot hold.
    func sourceLocation(_ location: SourcePosition) -> [String] {
        guard !fileName.isEmpty,
            fileName.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\" })
        else { return [] }
        // Written as swift-format writes the directive, so that the generated file is formatted.
        return ["        #sourceLocation(file:\"\(fileName)\",line:\(location.line))"]
    }

    /// The protocol the app conforms a type to.
    func implementationProtocol(modifier: String) -> [String] {
        var lines = [
            "",
            "    /// What the design names and leaves to the app's code: conform a type to it and pass it to",
            "    /// `chart(implementation:)`. Each requirement is declared at the design's place, so that a design",
            "    /// that renames one breaks the build there.",
            "    \(modifier)nonisolated protocol Implementation: Sendable {",
            "        /// The context the actions change and the guards read.",
            "        associatedtype Context",
        ]
        for item in implementation {
            let named = Escaping.swiftComment(Escaping.swiftLiteral(item.name))
            let parameters = item.hasParameters ? ", parameters: String" : ""
            lines.append("")
            switch item.kind {
            case .action:
                let note = item.hasParameters ? "; its parameters come as JSON text" : ""
                lines.append("        /// The action \(named)\(note).")
                lines += sourceLocation(item.location)
                lines.append(
                    "        func \(SwiftNaming.escaped(item.member))(_ event: Event?, _ context: inout Context\(parameters)) throws"
                )
            case .guard:
                let note = item.hasParameters ? "; its parameters come as JSON text" : ""
                lines.append("        /// The guard \(named): whether the transition may be taken\(note).")
                lines += sourceLocation(item.location)
                lines.append(
                    "        func \(SwiftNaming.escaped(item.member))(_ event: Event?, _ context: Context\(parameters)) -> Bool"
                )
            case .delay:
                lines.append("        /// The delay \(named).")
                lines += sourceLocation(item.location)
                lines.append("        var \(SwiftNaming.escaped(item.member)): Duration { get }")
            }
            if !sourceLocation(item.location).isEmpty { lines.append("        #sourceLocation()") }
        }
        lines.append("    }")
        return lines
    }
}
