import Statecharts

/// One branch of an `<if>`: its condition (none for `<else>`) and its actions.
public struct SCXMLBranch: Sendable, Hashable {
    /// The `cond` of the `<if>` or `<elseif>`; `nil` for `<else>`.
    public var condition: SCXMLExpression?
    /// The actions of the branch.
    public var actions: [SCXMLAction]

    /// A branch from its parts.
    public init(condition: SCXMLExpression?, actions: [SCXMLAction]) {
        self.condition = condition
        self.actions = actions
    }
}
