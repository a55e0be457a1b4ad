import Foundation
import Testing

/// Expected output kept in files next to the tests. Set `RECORD_GOLDEN=1` to write the files from
/// the current output instead of comparing; review the diff before committing.
enum Golden {
    static var recording: Bool { ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" }

    /// Compares `actual` with the file at `url`, or records it there.
    static func check(_ actual: String, against url: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        if recording {
            do {
                try actual.write(to: url, atomically: true, encoding: .utf8)
            } catch {
                Issue.record("cannot record \(url.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record(
                "no golden file at \(url.path); run with RECORD_GOLDEN=1 to record it", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "differs from \(url.lastPathComponent)", sourceLocation: sourceLocation)
    }
}
