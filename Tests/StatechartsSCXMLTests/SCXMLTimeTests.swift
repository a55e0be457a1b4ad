import StatechartsSCXML
import Testing

/// A delay written into a document (`SCXMLTime.text`) reads back as the same delay, and any
/// duration can be written, however long, without trapping.
@Suite struct SCXMLTimeTests {
    @Test("delays are written as whole milliseconds or seconds, and read back the same")
    func roundTrip() throws {
        let cases: [(Duration, String)] = [
            (.seconds(1), "1s"), (.milliseconds(300), "300ms"), (.seconds(300), "300s"), (.zero, "0s"),
            (.microseconds(1_500), "0.0015s"),
        ]
        for (duration, text) in cases {
            #expect(SCXMLTime.text(duration) == text)
            #expect(SCXMLTime.duration(text) == duration, "\(text)")
        }
    }

    @Test("a duration too long for nanoseconds in an Int64 is written as that limit, not a trap")
    func longestDurations() {
        let longest = Duration.seconds(Int64.max)
        #expect(SCXMLTime.text(longest) == "9223372036.854776s")
        #expect(SCXMLTime.text(longest + longest) == "9223372036.854776s")
        #expect(SCXMLTime.text(.zero - longest - longest).hasPrefix("-9223372036"))
    }
}
