import Foundation

/// The executables of the build that runs the tests, found through the build's own bin path (the
/// folder that holds the running test bundle) rather than a fixed `.build/debug`, so that a
/// release build, another triple or a `--scratch-path` finds its own.
public enum BuiltProducts {
    /// The folders a build puts its products in, as seen from the running test process: the
    /// folder of each loaded `.xctest` bundle, then the folder of the running executable.
    public static var binPaths: [URL] {
        var folders: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            var folder = executable.deletingLastPathComponent()
            // On Linux the test runner is BIN/Package.xctest itself; on macOS it may sit inside
            // BIN/Package.xctest/Contents/MacOS.
            while folder.path != "/", folder.pathComponents.contains(where: { $0.hasSuffix(".xctest") }) {
                folder = folder.deletingLastPathComponent()
            }
            folders.append(folder)
        }
        var seen: Set<String> = []
        return folders.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// The built executable `name`, or nil when this build has not made it.
    public static func executable(named name: String) -> URL? {
        for folder in binPaths {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
