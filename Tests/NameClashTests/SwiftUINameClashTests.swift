import BackgroundTaskKit
import Testing

/// SwiftUI's `BackgroundTask` (the type of the `.backgroundTask` modifier), as an app that imports
/// SwiftUI sees it: a generic struct named `BackgroundTask`, declared outside BackgroundTaskKit.
/// This module declares it itself, so every unqualified `BackgroundTask` below is this one, and
/// the file compiles only because the token's name, `BackgroundTaskToken`, does not clash.
struct BackgroundTask<Request, Response>: Sendable {
    var identifier: String
}

@Suite("Name clash with SwiftUI")
struct SwiftUINameClashTests {
    @Test("the token is used unqualified beside a BackgroundTask type of another module")
    func tokenBesideSwiftUIBackgroundTask() {
        let swiftUITask = BackgroundTask<String, Void>(identifier: "refresh")
        let app = FakeHost()
        let token = BackgroundTaskToken(name: swiftUITask.identifier, host: app) {}
        #expect(token.state == .running)
        #expect(app.openTaskNames == ["refresh"])
        token.invalidate()
        #expect(token.state == .ended)
        #expect(app.openTasks.isEmpty && app.endedCount == 1)
    }
}
