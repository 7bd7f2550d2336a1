extension BackgroundTaskToken {
    /// Runs `body` under a background task that ends when `body` returns or throws.
    ///
    /// ```swift
    /// try BackgroundTaskToken.run(name: "flush-log", host: app) {
    ///     try log.flushToDisk()
    /// }
    /// ```
    ///
    /// Contract: one begin before `body`, one end after it (or on expiry, whichever is first).
    /// `body` keeps running after an expiry; pass `onExpiration` to make it stop early.
    public static func run<Result, Failure: Error>(
        name: String, host: any BackgroundTaskHost, onExpiration: (@Sendable () -> Void)? = nil,
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let task = BackgroundTaskToken(name: name, host: host, onExpiration: onExpiration)
        defer { task.invalidate() }
        return try body()
    }

    /// Runs an async `body` under a background task that ends when `body` returns or throws.
    ///
    /// ```swift
    /// let saved = try await BackgroundTaskToken.run(name: "sync-notes", host: app) {
    ///     try await notes.sync()
    /// }
    /// ```
    ///
    /// Contract: as the synchronous form; `body` runs in the caller's isolation.
    public static func run<Result, Failure: Error>(
        name: String, host: any BackgroundTaskHost, onExpiration: (@Sendable () -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        let task = BackgroundTaskToken(name: name, host: host, onExpiration: onExpiration)
        defer { task.invalidate() }
        return try await body()
    }

    /// Runs callback-style work under a background task that ends when the work calls `done`.
    ///
    /// The pattern of the 2014 backup blog post, without its double end: every exit of the work
    /// calls `done`, and calling it after an expiry (or twice) does nothing.
    ///
    /// ```swift
    /// BackgroundTaskToken.runUntilDone(name: "backup", host: app) { done in
    ///     guard network.isAvailable else { return done() }
    ///     backup.start { _ in done() }
    /// }
    /// ```
    ///
    /// Contract: `done` is idempotent and safe from any thread. If every copy of `done` is
    /// released without being called, the task ends then (the token's release).
    public static func runUntilDone(
        name: String, host: any BackgroundTaskHost, onExpiration: (@Sendable () -> Void)? = nil,
        _ body: (_ done: @escaping @Sendable () -> Void) -> Void
    ) {
        let task = BackgroundTaskToken(name: name, host: host, onExpiration: onExpiration)
        body { task.invalidate() }
    }
}
