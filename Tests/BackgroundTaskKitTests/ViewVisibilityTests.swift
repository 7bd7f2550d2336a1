import BackgroundTaskKit
import Dispatch
import Synchronization
import Testing

/// ``ViewVisibility``: view appearance combined with the app's state (Backgroundable's
/// `Visibility`), one callback per change; the core tested on real threads too.
@Suite struct ViewVisibilityTests {
    /// The values `onChange` received, in order.
    final class Changes: Sendable {
        let values = Mutex<[Bool]>([])
        func append(_ value: Bool) { values.withCriticalSection { $0.append(value) } }
        var all: [Bool] { values.withCriticalSection { $0 } }
    }

    @Test("going home hides the view though UIKit sends no viewWillDisappear; coming back shows it again")
    @MainActor func homeHidesTheView() {
        let host = FakeHost(applicationState: .inactive, hasFinishedLaunching: false)
        let changes = Changes()
        let visibility = ViewVisibility(host: host) { changes.append($0) }
        host.finishLaunching()          // active
        visibility.viewDidAppear()      // on screen: visible
        host.enterBackground()          // willResignActive: hidden
        host.enterForeground()          // didBecomeActive: visible again
        visibility.viewWillDisappear()  // navigated away: hidden
        host.enterBackground()
        host.enterForeground()          // still navigated away: stays hidden
        #expect(changes.all == [true, false, true, false])
        #expect(!visibility.isVisible)
    }

    @Test("a view that appears while the app is inactive becomes visible only when the app is active")
    @MainActor func appearanceBeforeActive() {
        let host = FakeHost(applicationState: .inactive, hasFinishedLaunching: false)
        let changes = Changes()
        let visibility = ViewVisibility(host: host) { changes.append($0) }
        visibility.viewDidAppear()
        #expect(changes.all.isEmpty)
        host.finishLaunching()
        #expect(changes.all == [true])
        #expect(visibility.isVisible)
    }

    @Test("onChange may read isVisible; releasing the helper stops the callbacks")
    @MainActor func readsInsideTheCallbackAndStops() {
        let host = FakeHost()
        let seen = Changes()
        let slot = Mutex<ViewVisibility?>(nil)
        var visibility: ViewVisibility? = ViewVisibility(host: host) { _ in
            seen.append(slot.withCriticalSection { $0?.isVisible } ?? false)
        }
        slot.withCriticalSection { $0 = visibility }
        visibility?.viewDidAppear()
        #expect(seen.all == [true])
        slot.withCriticalSection { $0 = nil }
        visibility = nil
        host.enterBackground()
        #expect(seen.all == [true])
    }

    @Test("real threads: view events racing with lifecycle events give alternating callbacks ending in the final state")
    func racingThreads() {
        for round in 0..<200 {
            let host = FakeHost()
            let changes = Changes()
            let visibility = ViewVisibility(host: host) { changes.append($0) }
            // Lifecycle notifications come on the main actor (LifecycleObserver); view events
            // race with them from other threads.
            let lifecycle = DispatchGroup()
            DispatchQueue.main.async(group: lifecycle) {
                MainActor.assumeIsolated {
                    for step in 0..<40 { step.isMultiple(of: 2) ? host.enterBackground() : host.enterForeground() }
                }
            }
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                for step in 0..<20 {
                    (index + step).isMultiple(of: 2) ? visibility.viewDidAppear() : visibility.viewWillDisappear()
                }
            }
            lifecycle.wait()
            // Settle into a known state: visible.
            DispatchQueue.main.sync { MainActor.assumeIsolated { host.enterForeground() } }
            visibility.viewDidAppear()
            let values = changes.all
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 != $1 }, "round \(round): \(values)")
            #expect(values.first != false, "round \(round): starts from not visible")
            #expect(values.last == true && visibility.isVisible, "round \(round)")
        }
    }
}
