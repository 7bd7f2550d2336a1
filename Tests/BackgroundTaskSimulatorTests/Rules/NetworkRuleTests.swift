import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// The simulated network (issue 19): requests in flight when the app is suspended fail with
/// `networkConnectionLost` when it runs again (DTS, forum 802375: connections are defunct at
/// suspension); network loss fails requests in flight; no network fails at once; timeouts.
@Suite struct NetworkRuleTests {
    /// A scripted device whose requests take exactly `seconds`.
    static func device(requestSeconds seconds: Int64) -> ScriptedDevice {
        var environment = EnvironmentConfig.scripted
        environment.work = .init(minimum: .seconds(seconds), maximum: .seconds(seconds))
        return ScriptedDevice(environment: environment)
    }

    /// Starts a request at `time`; its outcomes and their times go into `results`.
    static func request(at time: VirtualTime, on script: ScriptedDevice, timeout: Duration = .seconds(60),
                        into results: Box<[(VirtualTime, Result<Void, NetworkError>)]>) {
        script.at(time) { script in
            let device = script.device
            script.context.network.request("send", timeout: timeout) { result in
                results.value.append((device.now, result))
            }
        }
    }

    static func errors(_ results: [(VirtualTime, Result<Void, NetworkError>)]) -> [NetworkError?] {
        results.map { if case .failure(let error) = $0.1 { error } else { nil } }
    }

    @Test("a request in flight when the app is suspended fails with networkConnectionLost, delivered on resume")
    func suspensionLosesTheConnection() {
        let script = Self.device(requestSeconds: 10)
        let results = Box<[(VirtualTime, Result<Void, NetworkError>)]>([])
        script.at(.zero) { $0.launch() }
        script.at(.seconds(10)) { $0.home() }  // nothing held: suspended at 11 s
        Self.request(at: .milliseconds(10_500), on: script, into: results)
        script.at(.seconds(30)) { $0.open() }
        script.run(until: .seconds(60))
        #expect(Self.errors(results.value) == [.networkConnectionLost])
        #expect(results.value.map(\.0) == [.seconds(30)])
        #expect(script.names.contains("network.request"))
    }

    @Test("a request that ends before suspension succeeds")
    func promptRequestSucceeds() {
        let script = Self.device(requestSeconds: 2)
        let results = Box<[(VirtualTime, Result<Void, NetworkError>)]>([])
        script.at(.zero) { $0.launch() }
        Self.request(at: .seconds(1), on: script, into: results)
        script.run(until: .seconds(10))
        #expect(Self.errors(results.value) == [nil])
        #expect(results.value.map(\.0) == [.seconds(3)])
    }

    @Test("network loss fails a request in flight at once; a request without network fails with notConnectedToInternet")
    func networkLoss() {
        let script = Self.device(requestSeconds: 10)
        let results = Box<[(VirtualTime, Result<Void, NetworkError>)]>([])
        script.at(.zero) { $0.launch() }
        Self.request(at: .seconds(1), on: script, into: results)
        script.at(.seconds(4)) { $0.perform(.networkDown) }
        Self.request(at: .seconds(5), on: script, into: results)
        script.run(until: .seconds(30))
        #expect(Self.errors(results.value) == [.networkConnectionLost, .notConnectedToInternet])
        #expect(results.value.map(\.0) == [.seconds(4), .seconds(5)])
    }

    @Test("a request longer than its timeout fails with timedOut at the timeout")
    func timeout() {
        let script = Self.device(requestSeconds: 20)
        let results = Box<[(VirtualTime, Result<Void, NetworkError>)]>([])
        script.at(.zero) { $0.launch() }
        Self.request(at: .seconds(1), on: script, timeout: .seconds(5), into: results)
        script.run(until: .seconds(30))
        #expect(Self.errors(results.value) == [.timedOut])
        #expect(results.value.map(\.0) == [.seconds(6)])
    }
}
