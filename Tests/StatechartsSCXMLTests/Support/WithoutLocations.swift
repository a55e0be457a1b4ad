import Statecharts
import StatechartsSCXML

/// Documents compared without where things are written: what a round trip must preserve.
let nowhere = SourcePosition(file: "", line: 0, column: 0)

extension SCXMLExpression { var placeless: SCXMLExpression { SCXMLExpression(text, location: nowhere) } }

extension SCXMLDocument {
    var placeless: SCXMLDocument {
        var copy = self
        copy.location = nowhere
        copy.states = states.map(\.placeless)
        copy.transitions = transitions.map(\.placeless)
        copy.data = data.map(\.placeless)
        copy.script = script?.placeless
        copy.extensions = extensions.placeless
        return copy
    }
}

extension SCXMLNode {
    var placeless: SCXMLNode {
        var copy = self
        copy.location = nowhere
        if hasGeneratedID { copy.id = "generated" }
        copy.initialTransition = initialTransition?.placeless
        copy.children = children.map(\.placeless)
        copy.transitions = transitions.map(\.placeless)
        copy.onEntry = onEntry.map { SCXMLBlock(actions: $0.actions.map(\.placeless), location: nowhere) }
        copy.onExit = onExit.map { SCXMLBlock(actions: $0.actions.map(\.placeless), location: nowhere) }
        copy.data = data.map(\.placeless)
        copy.doneData = doneData.map {
            SCXMLDoneData(content: $0.content?.placeless, params: $0.params.map(\.placeless), location: nowhere)
        }
        copy.invocations = invocations.map(\.placeless)
        copy.extensions = extensions.placeless
        return copy
    }
}

extension SCXMLExtensions {
    var placeless: SCXMLExtensions { SCXMLExtensions(attributes: attributes, elements: elements.map(\.placeless)) }
}

extension SCXMLForeignElement {
    var placeless: SCXMLForeignElement {
        var copy = self
        copy.location = nowhere
        copy.children = children.map(\.placeless)
        return copy
    }
}

extension SCXMLTransition {
    var placeless: SCXMLTransition {
        var copy = self
        copy.location = nowhere
        copy.condition = condition?.placeless
        copy.actions = actions.map(\.placeless)
        copy.extensions = extensions.placeless
        return copy
    }
}

extension SCXMLData {
    var placeless: SCXMLData {
        var copy = self
        copy.location = nowhere
        copy.expression = expression?.placeless
        if case .text(let text) = content { copy.content = .text(text.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return copy
    }
}

extension SCXMLScript {
    var placeless: SCXMLScript { SCXMLScript(source: source, text: text, location: nowhere) }
}

extension SCXMLContent {
    var placeless: SCXMLContent {
        var copy = SCXMLContent(expression: expression?.placeless, inline: inline, location: nowhere)
        if case .text(let text) = inline { copy.inline = .text(text.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return copy
    }
}

extension SCXMLParam {
    var placeless: SCXMLParam {
        SCXMLParam(
            name: name, expression: expression?.placeless, dataLocation: dataLocation?.placeless, location: nowhere)
    }
}

extension SCXMLInvoke {
    var placeless: SCXMLInvoke {
        var copy = self
        copy.location = nowhere
        copy.typeExpression = typeExpression?.placeless
        copy.sourceExpression = sourceExpression?.placeless
        copy.idLocation = idLocation?.placeless
        copy.params = params.map(\.placeless)
        copy.content = content?.placeless
        copy.finalize = finalize.map(\.placeless)
        return copy
    }
}

extension SCXMLAction {
    var placeless: SCXMLAction {
        let kind: Kind
        switch self.kind {
        case .raise, .cancel(_, nil): kind = self.kind
        case .cancel(let id, let expression?): kind = .cancel(sendID: id, sendIDExpression: expression.placeless)
        case .send(var send):
            send.eventExpression = send.eventExpression?.placeless
            send.targetExpression = send.targetExpression?.placeless
            send.typeExpression = send.typeExpression?.placeless
            send.idLocation = send.idLocation?.placeless
            send.delayExpression = send.delayExpression?.placeless
            send.params = send.params.map(\.placeless)
            send.content = send.content?.placeless
            kind = .send(send)
        case .log(let label, let expression): kind = .log(label: label, expression: expression?.placeless)
        case .if(let branches):
            kind = .if(
                branches.map { SCXMLBranch(condition: $0.condition?.placeless, actions: $0.actions.map(\.placeless)) })
        case .foreach(let array, let item, let index, let actions):
            kind = .foreach(array: array.placeless, item: item, index: index, actions: actions.map(\.placeless))
        case .assign(let location, let expression, let content):
            var trimmed = content
            if case .text(let text) = content { trimmed = .text(text.trimmingCharacters(in: .whitespacesAndNewlines)) }
            kind = .assign(location: location.placeless, expression: expression?.placeless, content: trimmed)
        case .script(let script): kind = .script(script.placeless)
        case .foreign(let element): kind = .foreign(element.placeless)
        }
        return SCXMLAction(kind, location: nowhere)
    }
}
