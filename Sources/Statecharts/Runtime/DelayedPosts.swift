/// Delayed sends waiting on a clock until they fire or `scope.cancel(id:)` withdraws them: a live
/// machine's to its parent and children, and those between the members of a
/// ``StatechartSystem``. Armed by the senders, fired by the wheel: behind a lock.
@usableFromInline
final class DelayedPosts: Sendable {
    private let waiting = Locked<[ObjectIdentifier: DelayedPost]>([:])

    init() {}

    /// Calls `deliver` after `delay` on `wheel`'s clock, unless `sender` cancels it by `id` first.
    func add(
        after delay: Duration, on wheel: TimerWheel, id: String?, sender: String? = nil,
        _ deliver: @escaping @Sendable () -> Void
    ) {
        let post = DelayedPost(id: id, sender: sender, owner: self, deliver: deliver)
        waiting.withLock { $0[ObjectIdentifier(post)] = post }
        post.arm(at: wheel.now + delay, on: wheel)
    }

    /// Withdraws the sends of `sender` with `id` that wait; how many.
    @usableFromInline @discardableResult
    func cancel(id: String, sender: String? = nil) -> Int {
        let cancelled = waiting.withLock { waiting in
            let matched = waiting.values.filter { $0.id == id && $0.sender == sender }
            for post in matched { waiting[ObjectIdentifier(post)] = nil }
            return matched
        }
        for post in cancelled { post.cancel() }
        return cancelled.count
    }

    /// Withdraws every send that waits: the machine is being released.
    func cancelAll() {
        let cancelled = waiting.withLock { waiting in
            defer { waiting.removeAll() }
            return Array(waiting.values)
        }
        for post in cancelled { post.cancel() }
    }

    /// `post` fell due: delivers it, unless it was withdrawn.
    fileprivate func fire(_ post: DelayedPost) {
        guard waiting.withLock({ $0.removeValue(forKey: ObjectIdentifier(post)) }) != nil else { return }
        post.deliver()
    }
}

/// One delayed send, in the sender's wheel.
final class DelayedPost: TimerWheelTarget {
    let id: String?
    /// Who sent it, among the senders that share the registry (the members of a system).
    let sender: String?
    let deliver: @Sendable () -> Void
    private weak let owner: DelayedPosts?
    private let handle = Locked<(TimerWheel, TimerHandle)?>(nil)

    init(id: String?, sender: String?, owner: DelayedPosts, deliver: @escaping @Sendable () -> Void) {
        self.id = id
        self.sender = sender
        self.owner = owner
        self.deliver = deliver
    }

    func arm(at deadline: Duration, on wheel: TimerWheel) {
        let armed = wheel.arm(at: deadline, for: self)
        handle.withLock { $0 = (wheel, armed) }
    }

    func cancel() {
        guard let (wheel, armed) = handle.withLock({ $0 }) else { return }
        wheel.cancel(armed)
    }

    @usableFromInline
    package func timerFired() async {
        owner?.fire(self)
    }
}
