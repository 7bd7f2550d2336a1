import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// ``DeviceReference``: the run's objects refer back to their device without keeping it alive,
/// and a use after the device is gone stops the process instead of following a dangling pointer.
@Suite("Device reference")
struct DeviceReferenceTests {
    /// A device of its own (no scripted sinks that would outlive it).
    static func makeDevice() -> SimulatedDevice {
        let info = WorkloadInfo(name: "idle", summary: "does nothing") { ScriptedWorkload(hooks: ScriptedHooks()) }
        return SimulatedDevice(profile: .ios17, environment: .scripted, workload: info,
                               choices: ChoiceSource(replaying: ChoiceSequence()))
    }

    @Test("a reference hands out its device while the device exists, without retaining it")
    func referenceWhileAlive() {
        var device = Self.makeDevice()
        let reference = DeviceReference(device, owner: "DeviceReferenceTests")
        #expect(reference.isDeviceAlive)
        #expect(reference.device === device)
        #expect(isKnownUniquelyReferenced(&device), "the reference must not retain the device")
    }

    @Test("a reference knows when its device is gone")
    func referenceAfterDeviceIsGone() {
        var device: SimulatedDevice? = Self.makeDevice()
        let reference = DeviceReference(device!, owner: "DeviceReferenceTests")
        device = nil
        #expect(!reference.isDeviceAlive)
    }

    @Test("following a reference after its device is gone stops the process")
    func useAfterDeviceIsGoneTraps() async {
        await #expect(processExitsWith: .failure) {
            var device: SimulatedDevice? = DeviceReferenceTests.makeDevice()
            let reference = DeviceReference(device!, owner: "DeviceReferenceTests")
            device = nil
            _ = reference.device.now
        }
    }

    @Test("an application kept after its run stops the process when it reaches its device")
    func applicationAfterRunTraps() async {
        await #expect(processExitsWith: .failure) {
            var device: SimulatedDevice? = DeviceReferenceTests.makeDevice()
            let app = device!.launchProcess(inBackground: false)!
            device!.tearDown()
            device = nil
            _ = app.makeSerialQueue(label: "late")
        }
    }

    @Test("an application kept after its run still answers what needs no device")
    func applicationAfterRunIsReadable() {
        var device: SimulatedDevice? = Self.makeDevice()
        let app = device!.launchProcess(inBackground: false)!
        device!.tearDown()
        device = nil
        #expect(!app.isAlive)
        #expect(app.process == 1)
    }
}
