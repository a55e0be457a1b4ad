import Foundation
import StatechartsTesting
import Testing

/// `swift run bluetooth-demo` prints the session in the golden file, exactly.
@Suite struct DemoTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theDemoPrintsTheGoldenSession() throws {
        let binary = try #require(
            BuiltProducts.executable(named: "bluetooth-demo"),
            "the bluetooth-demo binary is not in this build's bin path; run swift build")
        let process = Process()
        process.executableURL = binary
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let golden = try String(
            contentsOf: Self.packageRoot.appending(path: "Tests/StatechartsBluetoothTests/Fixtures/bluetooth-demo.txt"),
            encoding: .utf8)
        #expect(
            printed == golden,
            "regenerate with: swift run bluetooth-demo > Tests/StatechartsBluetoothTests/Fixtures/bluetooth-demo.txt")
    }
}
