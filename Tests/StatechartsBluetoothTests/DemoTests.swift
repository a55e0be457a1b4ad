import Foundation
import StatechartsTesting
import Testing

/// `swift run bluetooth-demo` prints the session in the golden file, exactly.
@Suite struct DemoTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    // The demo is built with the trait Tools (on swift-clocks).
    #if Tools
    @Test func theDemoPrintsTheGoldenSession() async throws {
        let binary = try #require(
            BuiltProducts.executable(named: "bluetooth-demo"),
            "the bluetooth-demo binary is not in this build's bin path; run swift build --enable-all-traits")
        let result = try await ChildProcess(executable: binary, arguments: []).run()
        #expect(result.status == 0 && !result.killedBySignal, "\(result.errorText)")
        let printed = result.outputText
        let golden = try String(
            contentsOf: Self.packageRoot.appending(path: "Tests/StatechartsBluetoothTests/Fixtures/bluetooth-demo.txt"),
            encoding: .utf8)
        #expect(
            printed == golden,
            "regenerate with: swift run --traits Tools bluetooth-demo > Tests/StatechartsBluetoothTests/Fixtures/bluetooth-demo.txt"
        )
    }
    #endif
}
