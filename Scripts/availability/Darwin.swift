// A stand-in for the pthread functions of Darwin that the core library uses (Locked), with Apple's
// signatures: what Scripts/availability.sh type-checks the core against for Apple targets.
// Declarations only.

/// `pthread_mutex_t`.
public struct pthread_mutex_t {
    public init() {}
}

/// `pthread_mutexattr_t`.
public struct pthread_mutexattr_t {
    public init() {}
}

@discardableResult
public func pthread_mutex_init(
    _ mutex: UnsafeMutablePointer<pthread_mutex_t>, _ attributes: UnsafePointer<pthread_mutexattr_t>?
) -> Int32 { fatalError() }

@discardableResult
public func pthread_mutex_destroy(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { fatalError() }

@discardableResult
public func pthread_mutex_lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { fatalError() }

@discardableResult
public func pthread_mutex_unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { fatalError() }
