import Statecharts

extension SCXMLConverter {
    /// The executable content inside an element.
    mutating func actions(in element: XMLElement) -> [SCXMLAction] {
        var result: [SCXMLAction] = []
        // Reports stray text; the children are taken in order below, those of other namespaces too.
        _ = children(of: element)
        for child in element.children {
            if !isSCXML(child) {
                result.append(SCXMLAction(.foreign(foreignElement(child)), location: child.location))
            } else if let action = action(from: child) {
                result.append(action)
            } else if !Self.executableContent.contains(child.name) {
                misplaced(child, in: element)
            }
        }
        return result
    }

    /// The elements of executable content.
    static let executableContent: Set<String> = ["raise", "send", "cancel", "log", "if", "foreach", "assign", "script"]

    /// One element of executable content; `nil` for elements that are not executable content, and
    /// for those missing a required attribute (already reported).
    mutating func action(from element: XMLElement) -> SCXMLAction? {
        let location = element.location
        switch element.name {
        case "raise":
            let attributes = attributes(of: element, allowed: ["event"])
            for child in children(of: element) { misplaced(child, in: element) }
            guard let event = required("event", in: attributes, of: element) else { return nil }
            return SCXMLAction(.raise(event: event), location: location)
        case "send":
            return SCXMLAction(.send(send(from: element)), location: location)
        case "cancel":
            let attributes = attributes(of: element, allowed: ["sendid", "sendidexpr"])
            for child in children(of: element) { misplaced(child, in: element) }
            exclusive(["sendid", "sendidexpr"], in: attributes, of: element)
            if attributes["sendid"] == nil && attributes["sendidexpr"] == nil {
                error("<cancel> needs the attribute 'sendid' or 'sendidexpr'", at: location)
            }
            return SCXMLAction(
                .cancel(
                    sendID: attributes["sendid"],
                    sendIDExpression: expression("sendidexpr", of: element, in: attributes)),
                location: location)
        case "log":
            let attributes = attributes(of: element, allowed: ["label", "expr"])
            for child in children(of: element) { misplaced(child, in: element) }
            return SCXMLAction(
                .log(label: attributes["label"], expression: expression("expr", of: element, in: attributes)),
                location: location)
        case "if":
            return SCXMLAction(.if(branches(of: element)), location: location)
        case "foreach":
            let attributes = attributes(of: element, allowed: ["array", "item", "index"])
            let array = required("array", in: attributes, of: element)
            let item = required("item", in: attributes, of: element)
            let body = actions(in: element)
            guard let array, let item else { return nil }
            return SCXMLAction(
                .foreach(
                    array: SCXMLExpression(array, location: self.location(of: "array", in: element)), item: item,
                    index: attributes["index"], actions: body),
                location: location)
        case "assign":
            let attributes = attributes(of: element, allowed: ["location", "expr"])
            let content = inlineContent(of: element)
            if attributes["expr"] != nil && content != nil {
                error("<assign> has both 'expr' and content; give only one", at: location)
            }
            guard let target = required("location", in: attributes, of: element) else { return nil }
            return SCXMLAction(
                .assign(
                    location: SCXMLExpression(target, location: self.location(of: "location", in: element)),
                    expression: expression("expr", of: element, in: attributes), content: content),
                location: location)
        case "script":
            return SCXMLAction(.script(script(from: element)), location: location)
        default:
            return nil
        }
    }

    /// The branches of an `<if>`: its own, then one per `<elseif>` and `<else>`.
    mutating func branches(of element: XMLElement) -> [SCXMLBranch] {
        let attributes = attributes(of: element, allowed: ["cond"])
        var branches = [SCXMLBranch(condition: expression("cond", of: element, in: attributes), actions: [])]
        if attributes["cond"] == nil { error("<if> needs the attribute 'cond'", at: element.location) }
        var sawElse = false
        _ = children(of: element)
        for child in element.children {
            if !isSCXML(child) {
                branches[branches.count - 1].actions.append(
                    SCXMLAction(.foreign(foreignElement(child)), location: child.location))
                continue
            }
            switch child.name {
            case "elseif":
                let childAttributes = self.attributes(of: child, allowed: ["cond"])
                if sawElse { error("<elseif> comes after <else>", at: child.location) }
                if childAttributes["cond"] == nil { error("<elseif> needs the attribute 'cond'", at: child.location) }
                for grandchild in children(of: child) { misplaced(grandchild, in: child) }
                branches.append(SCXMLBranch(condition: expression("cond", of: child, in: childAttributes), actions: []))
            case "else":
                _ = self.attributes(of: child, allowed: [])
                for grandchild in children(of: child) { misplaced(grandchild, in: child) }
                if sawElse { error("<if> has more than one <else>", at: child.location) }
                sawElse = true
                branches.append(SCXMLBranch(condition: nil, actions: []))
            default:
                if let action = action(from: child) {
                    branches[branches.count - 1].actions.append(action)
                } else {
                    misplaced(child, in: element)
                }
            }
        }
        return branches
    }

    mutating func send(from element: XMLElement) -> SCXMLSend {
        let attributes = attributes(
            of: element,
            allowed: [
                "event", "eventexpr", "target", "targetexpr", "type", "typeexpr", "id", "idlocation", "delay",
                "delayexpr",
                "namelist",
            ])
        exclusive(["event", "eventexpr"], in: attributes, of: element)
        exclusive(["target", "targetexpr"], in: attributes, of: element)
        exclusive(["type", "typeexpr"], in: attributes, of: element)
        exclusive(["id", "idlocation"], in: attributes, of: element)
        exclusive(["delay", "delayexpr"], in: attributes, of: element)
        var result = SCXMLSend(
            event: attributes["event"], eventExpression: expression("eventexpr", of: element, in: attributes),
            target: attributes["target"], targetExpression: expression("targetexpr", of: element, in: attributes),
            type: attributes["type"], typeExpression: expression("typeexpr", of: element, in: attributes),
            id: attributes["id"],
            idLocation: expression("idlocation", of: element, in: attributes), delayText: attributes["delay"],
            delayExpression: expression("delayexpr", of: element, in: attributes),
            namelist: attributes["namelist"].map(Self.tokens) ?? [])
        if let delay = attributes["delay"] {
            if let duration = SCXMLTime.duration(delay) {
                result.delay = duration
            } else {
                error(
                    "the delay '\(delay)' is not a time such as '1s', '0.5s' or '200ms'",
                    at: location(of: "delay", in: element))
            }
            if attributes["target"] == "#_internal" {
                error("a <send> to '#_internal' cannot be delayed", at: location(of: "delay", in: element))
            }
        }
        for child in children(of: element) {
            switch child.name {
            case "param": if let param = param(from: child) { result.params.append(param) }
            case "content":
                if result.content != nil { error("<send> has more than one <content>", at: child.location) }
                result.content = content(from: child)
            default: misplaced(child, in: element)
            }
        }
        if result.content != nil && (!result.params.isEmpty || !result.namelist.isEmpty) {
            error("<send> has both <content> and 'namelist' or <param>; give only one", at: element.location)
        }
        let scxmlProcessor = result.type == nil || SCXMLSend.scxmlProcessorTypes.contains(result.type ?? "")
        if scxmlProcessor && result.typeExpression == nil && result.event == nil && result.eventExpression == nil
            && result.content == nil
        {
            error("<send> needs the attribute 'event' or 'eventexpr', or a <content>", at: element.location)
        }
        return result
    }
}

/// SCXML time values (CSS2): a non-negative decimal number followed by `s` or `ms`.
public enum SCXMLTime {
    /// The duration of `text`, such as `"1s"`, `".5s"`, `"200ms"`; `nil` if it is not a time.
    public static func duration(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let (number, scale): (Substring, Double)
        if trimmed.hasSuffix("ms") {
            (number, scale) = (trimmed.dropLast(2), 1e-3)
        } else if trimmed.hasSuffix("s") {
            (number, scale) = (trimmed.dropLast(), 1)
        } else {
            return nil
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            number.filter({ $0 == "." }).count <= 1, number != ".", let value = Double(number),
            value.isFinite, value * scale < 1e9
        else { return nil }
        return .nanoseconds(Int64((value * scale * 1e9).rounded()))
    }

    /// `duration` written as an SCXML time: whole milliseconds as `ms`, else seconds. A duration
    /// beyond what an `Int64` of nanoseconds holds (about 292 years) is written as that limit,
    /// the delay a machine would wait, rather than trapping.
    public static func text(_ duration: Duration) -> String {
        let nanoseconds = duration.clampedNanoseconds
        if nanoseconds % 1_000_000_000 == 0 { return "\(nanoseconds / 1_000_000_000)s" }
        if nanoseconds % 1_000_000 == 0 { return "\(nanoseconds / 1_000_000)ms" }
        return "\(Double(nanoseconds) / 1e9)s"
    }
}
