/// The token's name in 0.1: it clashed with SwiftUI's `BackgroundTask` (the type of the
/// `.backgroundTask` modifier), so an app importing both had to qualify every use.
///
/// ```swift
/// let task = BackgroundTaskToken(name: "save", host: app) { cancel() }   // not BackgroundTask(...)
/// ```
///
/// Contract: kept for one release so existing code compiles with a deprecation warning and a
/// fix-it; removed in the next release. While it exists, a file that imports both SwiftUI and
/// BackgroundTaskKit still sees two `BackgroundTask`s: write the token as ``BackgroundTaskToken``.
@available(*, deprecated, renamed: "BackgroundTaskToken")
public typealias BackgroundTask = BackgroundTaskToken
