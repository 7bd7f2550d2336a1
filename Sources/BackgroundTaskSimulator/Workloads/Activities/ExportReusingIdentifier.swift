import BackgroundTaskKit

/// ``VideoExport`` that registers one fixed identifier, `com.example.videoexport.export.current`,
/// on every tap of Export, as code written for refresh tasks (registered once, at launch) does:
/// the first export works, and the second in the same process registers the identifier again
/// and crashes the app (C1.3, C6.2).
///
/// Expected: `bgtask-registered-in-time`.
enum ExportReusingIdentifier {
    static func make() -> VideoExport { VideoExport(freshIdentifiers: false) }
}
