import BackgroundTaskKit

/// ``MessageOutbox`` that counts `networkConnectionLost` as delivered: the request was cut when
/// the network went away (or the app was suspended), the server may never have received it
/// (Apple QA1941), yet the outbox is emptied and the work reported done. The messages are lost.
///
/// Expected: `request-failure-handled`.
enum LostConnectionCountedAsSent {
    static func make() -> MessageOutbox { MessageOutbox(treatsLostConnectionAsSuccess: true) }
}
