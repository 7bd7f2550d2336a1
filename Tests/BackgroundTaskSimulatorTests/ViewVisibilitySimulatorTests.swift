import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// The simulated screen and ``ViewVisibility`` on it (issue 19): going home sends the view
/// nothing, as in UIKit; navigation actions send `willDisappear`/`didAppear`; the helper hides
/// the view on `willResignActive`, and the watchlist planted with view appearance alone trips
/// `background-work-held` while its ViewVisibility counterpart holds it.
@Suite struct ViewVisibilitySimulatorTests {
    @Test("the view appears after didBecomeActive; home and open send it nothing; navigation does")
    func screenEvents() {
        let script = ScriptedDevice()
        let events = Box<[String]>([])
        script.device.addSink { event, _ in
            switch event {
            case .viewAppearance(let visible): events.value.append(visible ? "didAppear" : "willDisappear")
            case .lifecycle(let event): events.value.append(event.rawValue)
            default: break
            }
        }
        let kept = Box<[LifecycleObservation]>([])
        script.hooks.didFinishLaunching = { context in
            kept.value.append(context.application.addViewAppearanceObserver { _ in })
        }
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.home() }
        script.at(.seconds(2)) { $0.open() }
        script.at(.seconds(3)) { $0.perform(.viewDisappears) }
        script.at(.seconds(4)) { $0.perform(.viewAppears) }
        script.run(until: .seconds(10))
        #expect(events.value == ["didFinishLaunching", "didBecomeActive", "didAppear", "willResignActive",
                                 "didEnterBackground", "willEnterForeground", "didBecomeActive",
                                 "willDisappear", "didAppear"])
    }

    @Test("ViewVisibility on the simulated app: hidden by home (no viewWillDisappear), shown on return")
    func visibilityFollowsTheApp() {
        let script = ScriptedDevice()
        let changes = Box<[Bool]>([])
        let kept = Box<[ViewVisibility]>([])
        script.hooks.didFinishLaunching = { context in
            kept.value.append(ViewVisibility(host: context.application) { changes.value.append($0) })
        }
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.perform(.lock) }
        script.at(.seconds(30)) { $0.perform(.open) }
        script.at(.seconds(31)) { $0.perform(.viewDisappears) }
        script.run(until: .seconds(40))
        #expect(changes.value == [true, false, true, false])
    }

    @Test("polling tied to view appearance trips background-work-held; the ViewVisibility watchlist holds it")
    func plantedAndCorrect() throws {
        var environment = EnvironmentConfig()
        environment.weights[.viewDisappears] = 0.5
        environment.weights[.viewAppears] = 1
        func violations(_ name: String) throws -> Int {
            let entry = try #require(WorkloadCatalog.all.first { $0.info.name == name })
            let checked = try #require(Invariant.named("background-work-held"))
            let spec = RunSpec(profile: .ios17, environment: environment, workload: entry.info,
                               invariants: [checked], horizon: .seconds(900))
            return (0..<60).reduce(0) { count, index in
                let outcome = SimulationRunner.run(spec, choices: ChoiceSource(seed: Seed(0x71e).derive(index: UInt64(index))))
                return count + outcome.violations.count
            }
        }
        #expect(try violations("quote-watchlist/polling-tied-to-view-appearance") > 0)
        #expect(try violations("quote-watchlist/correct") == 0)
    }
}
