import Foundation
import FuzzDriver
import StatechartTool

/// One input: any bytes, read as a `statechart run --script` file and as an `--events` list. Each
/// must parse into steps or fail with one line; nothing may crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    do {
        let steps = try Step.script(text, file: "fuzz.txt")
        for step in steps { _ = step.label }
    } catch {
        precondition(!error.description.contains("\n") || text.contains("\n"), "a multi-line error")
    }
    for item in text.split(separator: ",") { _ = try? Step(parsing: String(item)) }
    return 0
}

/// The entry point SwiftPM links an executable through; it hands over to libFuzzer's driver.
@_cdecl("ScriptFuzzer_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzz)
}
