extension ExecutionHost {
    /// A `Mutex`: the default for a host whose queues run on OS threads.
    ///
    /// ```swift
    /// let pending = host.makeLock(name: "pending uploads")
    /// ```
    public func makeLock(name: String) -> any HostLock { MutexHostLock(name: name) }

    /// A `DispatchSemaphore`: the default for a host whose queues run on OS threads.
    ///
    /// ```swift
    /// let done = host.makeSemaphore(name: "done", value: 0)
    /// ```
    public func makeSemaphore(name: String, value: Int) -> any HostSemaphore {
        DispatchHostSemaphore(name: name, value: value)
    }

    /// Plain storage: the default for a host whose queues run on OS threads.
    ///
    /// ```swift
    /// let didComplete = host.makeShared(name: "didComplete", initialValue: false)
    /// ```
    public func makeShared<Value: Sendable>(name: String, initialValue: Value) -> SharedState<Value> {
        SharedState(name: name, initialValue: initialValue, observer: nil)
    }

    /// Nothing: OS threads switch wherever they like.
    public func schedulingPoint() {}
}
