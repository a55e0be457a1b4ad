// A stand-in for the pthread functions of Darwin that the core library uses (Locked), with Apple's
// signatures: what Scripts/availability.sh type-checks the core against for Apple targets.
// Declarations only.

/// `pthread_mutex_t`.
public struct pthread_mutex_t {
    /// A mutex to initialise.
    public init() {}
}

/// `pthread_mutexattr_t`.
public struct pthread_mutexattr_t {
    /// Default attributes.
    public init() {}
}

/// Initialises a mutex.
@discardableResult
public func pthread_mutex_init(
    _ mutex: UnsafeMutablePointer<pthread_mutex_t>, _ attributes: UnsafePointer<pthread_mutexattr_t>?
) -> Int32 { fatalError() }

/// Destroys a mutex.
@discardableResult
public func pthread_mutex_destroy(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { fatalError() }

/// Locks a mutex.
@discardableResult
public func pthread_mutex_lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { fatalError() }

/// Unlocks a mutex.
@discardableResult
public func pthread_mutex_unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { fatalError() }
