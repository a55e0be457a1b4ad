import Foundation
import Statecharts
import StatechartsSCXML
import Testing

/// `SCXMLCascade.current`, bound to the thread of a session call by `withCurrent(_:_:)`.
@Suite struct CascadeBindingTests {
    @Test("a binding is seen inside its call only, and nested calls give the outer cascade back")
    func nestedBindings() {
        let outer = SCXMLCascade(limits: .default)
        let inner = SCXMLCascade(limits: .default)
        #expect(SCXMLCascade.current == nil)
        SCXMLCascade.withCurrent(outer) {
            #expect(SCXMLCascade.current === outer)
            SCXMLCascade.withCurrent(inner) { #expect(SCXMLCascade.current === inner) }
            #expect(SCXMLCascade.current === outer)
            SCXMLCascade.withCurrent(nil) { #expect(SCXMLCascade.current == nil) }
            #expect(SCXMLCascade.current === outer)
        }
        #expect(SCXMLCascade.current == nil)
    }

    @Test("a call that throws unbinds its cascade")
    func throwingCall() {
        struct Failure: Error {}
        let cascade = SCXMLCascade(limits: .default)
        #expect(throws: Failure.self) {
            try SCXMLCascade.withCurrent(cascade) { () throws(Failure) in throw Failure() }
        }
        #expect(SCXMLCascade.current == nil)
    }

    @Test("each thread sees its own binding")
    func threadsDoNotShare() {
        let mine = SCXMLCascade(limits: .default)
        let seenElsewhere = Locked<[Bool]>([])
        SCXMLCascade.withCurrent(mine) {
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                let other = SCXMLCascade(limits: .default)
                var seen = [SCXMLCascade.current == nil]
                SCXMLCascade.withCurrent(other) { seen.append(SCXMLCascade.current === other) }
                seen.append(SCXMLCascade.current == nil)
                seenElsewhere.withLock { $0 = seen }
                done.signal()
            }
            thread.start()
            done.wait()
            #expect(SCXMLCascade.current === mine)
        }
        #expect(seenElsewhere.withLock { $0 } == [true, true, true])
    }
}
