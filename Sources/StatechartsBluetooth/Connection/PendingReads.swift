import Statecharts

import struct Foundation.Data

/// One caller waiting for a read, resumed once: by the answer, the link going down, or its timeout.
final class ReadWaiter<Value: Sendable>: Sendable {
    /// Tells waiters apart.
    let key: Int
    private let continuation: Locked<CheckedContinuation<Result<Value, BluetoothError>, Never>?>

    init(_ continuation: CheckedContinuation<Result<Value, BluetoothError>, Never>) {
        key = readWaiterKeys.withLock {
            $0 += 1
            return $0
        }
        self.continuation = Locked(continuation)
    }

    /// Resumes the caller, the first time only.
    func resume(returning result: Result<Value, BluetoothError>) {
        continuation.withLock { continuation in
            continuation?.resume(returning: result)
            continuation = nil
        }
    }
}

/// Behind a lock rather than in an `Atomic`, which needs macOS 15 and iOS 18.
private let readWaiterKeys = Locked(0)

/// The reads a ``BluetoothConnection`` waits for: characteristic values and signal strengths.
struct PendingReads: Sendable {
    private var values: [ReadWaiter<Data>] = []
    private var valueTargets: [Int: (CharacteristicID, PeripheralID)] = [:]
    private var signals: [ReadWaiter<Int>] = []
    private var signalTargets: [Int: PeripheralID] = [:]

    mutating func add(read waiter: ReadWaiter<Data>, of characteristic: CharacteristicID, of peripheral: PeripheralID) {
        values.append(waiter)
        valueTargets[waiter.key] = (characteristic, peripheral)
    }

    mutating func add(signalRead waiter: ReadWaiter<Int>, of peripheral: PeripheralID) {
        signals.append(waiter)
        signalTargets[waiter.key] = peripheral
    }

    /// The waiters for `characteristic` of `peripheral`, removed.
    mutating func takeReads(of characteristic: CharacteristicID, of peripheral: PeripheralID) -> [ReadWaiter<Data>] {
        let taken = values.filter { valueTargets[$0.key].map { $0 == characteristic && $1 == peripheral } ?? false }
        for waiter in taken { remove(waiter.key) }
        return taken
    }

    /// The signal waiters for `peripheral`, removed.
    mutating func takeSignalReads(of peripheral: PeripheralID) -> [ReadWaiter<Int>] {
        let taken = signals.filter { signalTargets[$0.key] == peripheral }
        for waiter in taken { remove(waiter.key) }
        return taken
    }

    /// Every waiter for `peripheral`, removed.
    mutating func takeAll(of peripheral: PeripheralID) -> (values: [ReadWaiter<Data>], signals: [ReadWaiter<Int>]) {
        let taken = values.filter { valueTargets[$0.key]?.1 == peripheral }
        for waiter in taken { remove(waiter.key) }
        return (taken, takeSignalReads(of: peripheral))
    }

    /// Removes a waiter; returns whether it was waiting.
    @discardableResult
    mutating func remove(_ key: Int) -> Bool {
        let wasValue = valueTargets.removeValue(forKey: key) != nil
        let wasSignal = signalTargets.removeValue(forKey: key) != nil
        values.removeAll { $0.key == key }
        signals.removeAll { $0.key == key }
        return wasValue || wasSignal
    }
}
