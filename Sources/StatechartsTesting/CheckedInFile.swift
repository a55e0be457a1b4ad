import Foundation

/// A file this repository keeps that its tests can write again: the pictures of charts in the
/// documentation catalogs and the README, drawn by the library. A test compares what it makes with
/// the file; `Scripts/pictures.sh` runs those tests with ``regenerateVariable`` set, and they
/// write the file instead.
package enum CheckedInFile {
    /// The environment variable that makes ``isCurrent(_:at:)`` write the file before comparing.
    package static let regenerateVariable = "STATECHARTS_REGENERATE"

    /// Whether the file at `url` holds exactly `contents`. With ``regenerateVariable`` set, it is
    /// written first, so that it does.
    package static func isCurrent(_ contents: String, at url: URL) throws -> Bool {
        if ProcessInfo.processInfo.environment[regenerateVariable] != nil {
            try contents.write(to: url, atomically: true, encoding: .utf8)
        }
        return (try? String(contentsOf: url, encoding: .utf8)) == contents
    }
}
