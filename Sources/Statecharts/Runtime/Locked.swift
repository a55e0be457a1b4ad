#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`.
///
/// The runtime uses this rather than `Synchronization.Mutex` because the thread sanitizer
/// understands pthread mutexes on every platform: on Linux, `Mutex` locks with futex calls the
/// sanitizer cannot see, and it reports the accesses it guards as races. Other modules of the
/// package (the connection kit) use it for the same reason.
package final class Locked<Value: ~Copyable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: consuming Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

extension Locked: CustomReflectable where Value: ~Copyable {
    /// No children: reflecting the value would read it without the lock, and a value that cannot be
    /// copied cannot be reflected at all (a failed expectation of a test that mentions an object
    /// holding one would crash the runner).
    package var customMirror: Mirror { Mirror(self, children: [:]) }
}
