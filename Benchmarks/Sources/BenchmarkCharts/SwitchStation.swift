import Statecharts

/// The 20-state machine as a hand-written `switch`: one case per (state, event) it handles.
public struct SwitchStation {
    /// Creates the machine in `s0`.
    public init() {}
    /// The current state.
    public var state = Station.s0

    /// Handles one event.
    @inline(never)
    public mutating func send(_ event: Signal10) {
        switch (state, event) {
        case (.s0, .e0): state = .s1
        case (.s0, .e2): state = .s7
        case (.s0, .e4): state = .s13
        case (.s0, .e6): state = .s19
        case (.s0, .e8): state = .s5
        case (.s1, .e1): state = .s11
        case (.s1, .e3): state = .s17
        case (.s1, .e5): state = .s3
        case (.s1, .e7): state = .s9
        case (.s1, .e9): state = .s15
        case (.s2, .e0): state = .s15
        case (.s2, .e2): state = .s1
        case (.s2, .e4): state = .s7
        case (.s2, .e6): state = .s13
        case (.s2, .e8): state = .s19
        case (.s3, .e1): state = .s5
        case (.s3, .e3): state = .s11
        case (.s3, .e5): state = .s17
        case (.s3, .e7): state = .s3
        case (.s3, .e9): state = .s9
        case (.s4, .e0): state = .s9
        case (.s4, .e2): state = .s15
        case (.s4, .e4): state = .s1
        case (.s4, .e6): state = .s7
        case (.s4, .e8): state = .s13
        case (.s5, .e1): state = .s19
        case (.s5, .e3): state = .s5
        case (.s5, .e5): state = .s11
        case (.s5, .e7): state = .s17
        case (.s5, .e9): state = .s3
        case (.s6, .e0): state = .s3
        case (.s6, .e2): state = .s9
        case (.s6, .e4): state = .s15
        case (.s6, .e6): state = .s1
        case (.s6, .e8): state = .s7
        case (.s7, .e1): state = .s13
        case (.s7, .e3): state = .s19
        case (.s7, .e5): state = .s5
        case (.s7, .e7): state = .s11
        case (.s7, .e9): state = .s17
        case (.s8, .e0): state = .s17
        case (.s8, .e2): state = .s3
        case (.s8, .e4): state = .s9
        case (.s8, .e6): state = .s15
        case (.s8, .e8): state = .s1
        case (.s9, .e1): state = .s7
        case (.s9, .e3): state = .s13
        case (.s9, .e5): state = .s19
        case (.s9, .e7): state = .s5
        case (.s9, .e9): state = .s11
        case (.s10, .e0): state = .s11
        case (.s10, .e2): state = .s17
        case (.s10, .e4): state = .s3
        case (.s10, .e6): state = .s9
        case (.s10, .e8): state = .s15
        case (.s11, .e1): state = .s1
        case (.s11, .e3): state = .s7
        case (.s11, .e5): state = .s13
        case (.s11, .e7): state = .s19
        case (.s11, .e9): state = .s5
        case (.s12, .e0): state = .s5
        case (.s12, .e2): state = .s11
        case (.s12, .e4): state = .s17
        case (.s12, .e6): state = .s3
        case (.s12, .e8): state = .s9
        case (.s13, .e1): state = .s15
        case (.s13, .e3): state = .s1
        case (.s13, .e5): state = .s7
        case (.s13, .e7): state = .s13
        case (.s13, .e9): state = .s19
        case (.s14, .e0): state = .s19
        case (.s14, .e2): state = .s5
        case (.s14, .e4): state = .s11
        case (.s14, .e6): state = .s17
        case (.s14, .e8): state = .s3
        case (.s15, .e1): state = .s9
        case (.s15, .e3): state = .s15
        case (.s15, .e5): state = .s1
        case (.s15, .e7): state = .s7
        case (.s15, .e9): state = .s13
        case (.s16, .e0): state = .s13
        case (.s16, .e2): state = .s19
        case (.s16, .e4): state = .s5
        case (.s16, .e6): state = .s11
        case (.s16, .e8): state = .s17
        case (.s17, .e1): state = .s3
        case (.s17, .e3): state = .s9
        case (.s17, .e5): state = .s15
        case (.s17, .e7): state = .s1
        case (.s17, .e9): state = .s7
        case (.s18, .e0): state = .s7
        case (.s18, .e2): state = .s13
        case (.s18, .e4): state = .s19
        case (.s18, .e6): state = .s5
        case (.s18, .e8): state = .s11
        case (.s19, .e1): state = .s17
        case (.s19, .e3): state = .s3
        case (.s19, .e5): state = .s9
        case (.s19, .e7): state = .s15
        case (.s19, .e9): state = .s1
        default: break
        }
    }
}
