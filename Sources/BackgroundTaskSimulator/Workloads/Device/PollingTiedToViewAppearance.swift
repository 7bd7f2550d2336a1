import BackgroundTaskKit

/// ``QuoteWatchlist`` that polls from `viewDidAppear` to `viewWillDisappear`, as most UIKit code
/// does: the user going home or locking the phone sends no `viewWillDisappear`, so the refresh in
/// flight keeps running in the background with nothing holding the app.
///
/// Expected: `background-work-held`.
enum PollingTiedToViewAppearance {
    static func make() -> QuoteWatchlist { QuoteWatchlist(usesVisibility: false) }
}
