import Foundation
import Statecharts

/// A ``PeripheralMemory`` kept in a JSON file, written whole (atomically) on every change: the
/// default memory of a ``BluetoothConnection``.
///
/// By default the file is `<application support>/<app>/peripherals.json`: the user's
/// Application Support folder on Apple platforms, and `$XDG_DATA_HOME` (else
/// `~/.local/share`) on Linux. A file that cannot be read or decoded is set aside as
/// `peripherals.json.unreadable` and the memory starts empty, so a damaged file never stops the
/// app from pairing again; a write that fails keeps the value in memory and is reported in
/// ``lastError``.
public final class FilePeripheralMemory: PeripheralMemory {
    /// The file.
    public let fileURL: URL
    private let stored: Locked<Stored>

    private struct Stored: ~Copyable {
        var contents: RememberedPeripherals
        var lastError: String?
    }

    /// A memory kept in `fileURL`, read now if it exists.
    public init(fileURL: URL) {
        self.fileURL = fileURL
        var problem: String?
        let contents: RememberedPeripherals
        do {
            contents = try Self.read(fileURL) ?? RememberedPeripherals()
        } catch {
            problem = "\(fileURL.path) could not be read (\(error)); it was set aside and pairing starts anew"
            try? FileManager.default.removeItem(at: fileURL.appendingPathExtension("unreadable"))
            try? FileManager.default.moveItem(at: fileURL, to: fileURL.appendingPathExtension("unreadable"))
            contents = RememberedPeripherals()
        }
        stored = Locked(Stored(contents: contents, lastError: problem))
    }

    /// A memory in the platform's application-support folder, in a folder named after the app.
    ///
    /// - Parameter application: The folder's name; by default the bundle identifier, else the
    ///   process name.
    public convenience init(application: String? = nil) {
        let name = application ?? Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
        self.init(
            fileURL: Self.applicationSupportFolder().appendingPathComponent(name).appendingPathComponent(
                "peripherals.json"))
    }

    /// The platform's folder for an app's own data: Application Support on Apple platforms,
    /// `$XDG_DATA_HOME` (when absolute) or `~/.local/share` elsewhere.
    public static func applicationSupportFolder(
        environment: [String: String] = ProcessInfo.processInfo.environment
    )
        -> URL
    {
        #if canImport(Darwin)
        if let folder = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first {
            return folder
        }
        #endif
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data, isDirectory: true)
        }
        let home =
            environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/share", isDirectory: true)
    }

    /// What the memory holds.
    public var contents: RememberedPeripherals { stored.withLock { $0.contents } }

    /// Why the file was last set aside or not written, if it was.
    public var lastError: String? { stored.withLock { $0.lastError } }

    /// The paired peripheral, or `nil`.
    public var pairedPeripheral: PeripheralID? {
        get { stored.withLock { $0.contents.paired } }
        set { change { $0.paired = newValue } }
    }

    /// What is kept under `key` for `peripheral`.
    public func value(forKey key: String, of peripheral: PeripheralID) -> Data? {
        stored.withLock { $0.contents.devices[peripheral]?[key] }
    }

    /// Keeps `value` under `key` for `peripheral`, and writes the file.
    public func setValue(_ value: Data?, forKey key: String, of peripheral: PeripheralID) {
        change { $0.set(value, forKey: key, of: peripheral) }
    }

    /// Forgets `peripheral`, and writes the file.
    public func forget(_ peripheral: PeripheralID) { change { $0.forget(peripheral) } }

    /// Changes the contents and writes them, under the lock so that writes keep their order.
    private func change(_ body: (inout RememberedPeripherals) -> Void) {
        stored.withLock { stored in
            let before = stored.contents
            body(&stored.contents)
            guard stored.contents != before else { return }
            do {
                try FileManager.default.createDirectory(
                    at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                try encoder.encode(stored.contents).write(to: fileURL, options: .atomic)
                stored.lastError = nil
            } catch {
                stored.lastError = "\(fileURL.path) could not be written: \(error)"
            }
        }
    }

    private static func read(_ url: URL) throws -> RememberedPeripherals? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(RememberedPeripherals.self, from: Data(contentsOf: url))
    }
}
