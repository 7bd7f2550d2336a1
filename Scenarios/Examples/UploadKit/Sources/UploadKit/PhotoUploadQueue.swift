import BackgroundTaskKit
import BackgroundTaskNetwork
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Uploads the photos the user took, and keeps uploading when the app leaves the foreground:
/// it begins a background task on each background entry and ends it when the queue is empty or
/// the system says time is up.
///
/// ```swift
/// let queue = PhotoUploadQueue(host: UIKitApplicationHost(), session: URLSessionNetworkSession(.shared))
/// queue.enqueue("IMG_0001.HEIC")
/// // on didEnterBackground:
/// queue.appDidEnterBackground()
/// ```
///
/// Contract: every task it begins is ended exactly once, by the last upload's completion or by
/// the expiration handler, whichever comes first; the expiration handler cancels the upload in
/// flight; a refused begin (`.invalid`) uploads nothing until the next background entry; a failed
/// upload (the connection lost at suspension, no network, a timeout) keeps its photo for the next
/// entry; one chain of uploads runs per task (a completion that arrives after its task ended is
/// ignored). All state is touched on the main queue.
public final class PhotoUploadQueue: @unchecked Sendable {
    // @unchecked: every property is touched on the host's main queue only.
    private let host: any ApplicationHost
    private let session: any NetworkSession
    private let server: URL
    /// Skips the empty-queue check (the bug this example plants: see ``init(host:session:server:beginsWhenEmpty:completesOffMain:)``).
    private let beginsWhenEmpty: Bool
    /// Drops an uploaded photo on the session's queue (the second bug this example plants).
    private let completesOffMain: Bool
    private var pending: [String] = []
    private var task = BackgroundTaskIdentifier.invalid
    private var upload: (any NetworkSessionTask)?

    /// The photos not uploaded yet, oldest first.
    public var pendingPhotos: [String] { pending }

    /// - Parameters:
    ///   - session: `URLSessionNetworkSession(.shared)` in the app; the simulator's session in tests.
    ///   - server: where photos are uploaded, one `PUT` per photo.
    ///   - beginsWhenEmpty: `true` reproduces a bug from a real app: the task is begun before the
    ///     queue is checked, and an empty queue returns without ending it. The task is then held,
    ///     doing nothing, until the system expires it: the app burns its background time (and on
    ///     iOS 13.4+ logs a warning). `false` is the fixed code.
    ///   - completesOffMain: `true` reproduces another: the upload's completion handler removes
    ///     the uploaded photo from `pending` on the session's own queue, before it hops to main,
    ///     while main appends the photos the user takes. Two threads touch the array with nothing
    ///     ordering them: a data race (a lost photo, or a crash in the array's storage). `false`
    ///     is the fixed code: all of it on main.
    public init(
        host: any ApplicationHost, session: any NetworkSession,
        server: URL = URL(string: "https://photos.example.com/upload")!, beginsWhenEmpty: Bool = false,
        completesOffMain: Bool = false
    ) {
        self.host = host
        self.session = session
        self.server = server
        self.beginsWhenEmpty = beginsWhenEmpty
        self.completesOffMain = completesOffMain
    }

    /// Adds a photo to upload.
    public func enqueue(_ photo: String) {
        pending.append(photo)
    }

    /// Call on `didEnterBackground`: uploads what is pending under one background task.
    public func appDidEnterBackground() {
        guard task == .invalid else { return }  // still uploading from the last entry
        if !beginsWhenEmpty, pending.isEmpty { return }
        task = host.beginBackgroundTask(withName: "photo-upload") { [self] in
            upload?.cancel()  // time is up: stop the upload in flight, then end the task
            endTask()
        }
        guard task != .invalid else { return }  // refused: upload on the next entry
        guard let next = pending.first else { return }  // (the bug: begun, but nothing to do)
        send(next)
    }

    private func send(_ photo: String) {
        let owner = task
        var request = URLRequest(url: server.appendingPathComponent(photo))
        request.httpMethod = "PUT"
        let upload = session.uploadTask(with: request, from: Data(photo.utf8)) { [self] _, response, error in
            let succeeded = error == nil && (response as? HTTPURLResponse)?.statusCode == 200
            // (The second bug: the photo dropped here, on the session's queue.)
            if completesOffMain, succeeded, pending.first == photo { pending.removeFirst() }
            host.mainQueue.async { [self] in
                // Expired meanwhile, or a later background entry began a new task (and uploads
                // `photo` again itself): this completion belongs to no running chain. Without the
                // owner check a late completion would start a second chain, and the first to run
                // out of photos would end the task under the other's upload.
                guard task != .invalid, task == owner else { return }
                if !completesOffMain, succeeded, pending.first == photo { pending.removeFirst() }
                if let next = pending.first, succeeded {
                    send(next)
                } else {
                    endTask()
                }
            }
        }
        self.upload = upload
        upload.resume()
    }

    private func endTask() {
        guard task != .invalid else { return }
        host.endBackgroundTask(task)
        task = .invalid
        upload = nil
    }
}
