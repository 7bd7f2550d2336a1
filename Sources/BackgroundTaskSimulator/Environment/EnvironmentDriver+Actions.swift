import DeterministicSimulation

extension EnvironmentDriver {
    /// The actions that make sense in the app's current state, in declaration order.
    func possibleActions() -> [EnvironmentAction] {
        collectPossibleActions()
        return Array(UnsafeBufferPointer(start: candidates, count: candidateCount))
    }

    /// Fills the first ``candidateCount`` elements of ``candidates`` with ``possibleActions()``
    /// (fixed scratch: emptied by resetting the count, never allocates).
    func collectPossibleActions() {
        candidateCount = 0
        let device = self.device
        let service = device.taskScheduler
        // The app is unwrapped once (each `app?.` read cost a retain and a release).
        guard let app = device.liveApp else {
            addCandidate(.launch)
            if service.hasEligibleRequest() { addCandidate(.launchBackgroundTask) }
            appendDeviceActions(device)
            return
        }
        switch app.state {
        case .notRunning:
            addCandidate(.launch)
            if service.hasEligibleRequest() { addCandidate(.launchBackgroundTask) }
        case .active:
            addCandidate(.home)
            addCandidate(.lock)
            addCandidate(.appSwitcher)
            addCandidate(.incomingCall)
            // Navigation, only for a workload that observes its view (and weighs the actions).
            if let screen = app.core.screen {
                let action: EnvironmentAction = screen.isOnTop ? .viewDisappears : .viewAppears
                if device.environment.weights[action] > 0 { addCandidate(action) }
            }
            if app.core.runningTasks.contains(where: { $0.isContinuedProcessing }) {
                addCandidate(.userCancelsContinuedTask)
            }
            // C6.11: a running task (continued processing) may expire in the foreground too.
            if !app.core.runningTasks.isEmpty { addCandidate(.expireBackgroundTask) }
        case .inactive:
            if app.core.inAppSwitcher {
                addCandidate(.open)
                addCandidate(.home)
                addCandidate(.forceQuit)
            } else {
                addCandidate(.endCall)
                addCandidate(.home)
            }
        case .background:
            addCandidate(.open)
            addCandidate(.forceQuit)
            addCandidate(.memoryPressureKill)
            if !app.core.openTasks.isEmpty { addCandidate(.earlyExpiry) }
            if service.hasEligibleRequest() { addCandidate(.launchBackgroundTask) }
            if !app.core.runningTasks.isEmpty { addCandidate(.expireBackgroundTask) }
            if app.core.sceneConnected { addCandidate(.sceneDisconnect) }
            if app.core.runningTasks.contains(where: { $0.isContinuedProcessing }) {
                addCandidate(.userCancelsContinuedTask)
            }
        case .suspended:
            addCandidate(.open)
            addCandidate(.forceQuit)
            addCandidate(.memoryPressureKill)
            if service.hasEligibleRequest() { addCandidate(.launchBackgroundTask) }
        }
        appendDeviceActions(device)
    }

    /// Appends a possible action to the current draw's scratch.
    @inline(__always)
    private func addCandidate(_ action: EnvironmentAction) {
        candidates[candidateCount] = action
        candidateCount &+= 1
    }

    /// The actions on the device rather than the app (network, Background App Refresh, power,
    /// silent pushes), appended last.
    @inline(__always)
    private func appendDeviceActions(_ device: SimulatedDevice) {
        addCandidate(device.isNetworkAvailable ? .networkDown : .networkUp)
        if device.profile.hasTaskScheduler {
            addCandidate(device.isBackgroundRefreshEnabled ? .backgroundRefreshOff : .backgroundRefreshOn)
            addCandidate(device.isOnExternalPower ? .powerDisconnected : .powerConnected)  // C3.3
        }
        // A reboot comes while the app is off screen (a night-time update, a restart from the lock
        // screen); offered only when the scenario weighs it, so runs that never reboot draw as before.
        if device.environment.weights[.reboot] > 0, device.liveApp?.state.isForeground != true {
            addCandidate(.reboot)
        }
        // Low Power Mode and app updates: offered only when the scenario weighs them.
        if device.environment.weights[.lowPowerModeOn] > 0 || device.environment.weights[.lowPowerModeOff] > 0 {
            addCandidate(device.isLowPowerModeEnabled ? .lowPowerModeOff : .lowPowerModeOn)
        }
        if device.environment.weights[.appUpdate] > 0, device.liveApp?.state.isForeground != true {
            addCandidate(.appUpdate)
        }
        if receivesPushes { addCandidate(.silentPush) }  // D2: in any state of the app
        if fetchesInBackground, device.isBackgroundFetchDue { addCandidate(.backgroundFetch) }  // D3
        // D4: only for an app with an accessory background mode, when the scenario weighs it.
        if device.environment.weights[.accessoryWake] > 0, device.hasAccessoryMode { addCandidate(.accessoryWake) }
    }

    /// Carries out `action` on the device.
    func perform(_ action: EnvironmentAction) {
        let app = device.liveApp
        switch action {
        case .launch:
            device.storage.unlock()  // the user unlocks the device to tap the icon
            device.launchProcess(inBackground: false)
        case .open:
            device.storage.unlock()
            device.blockedByForceQuit = false
            if app?.state == .inactive { app?.becomeActiveAgain() } else { app?.enterForeground() }
        case .home: app?.enterBackground()
        case .lock:
            // Unlike `home`, the device locks: complete-protection files go dark after
            // OSProfile.completeProtectionLockDelay (FileProtection).
            device.storage.lock(at: device.now)
            app?.enterBackground()
        case .lowPowerModeOn, .lowPowerModeOff: device.isLowPowerModeEnabled = action == .lowPowerModeOn
        case .appUpdate:
            app?.terminate(.appUpdate)  // the update replaces the binary: the process ends, no callback
            if device.choices.bool(probability: device.profile.appUpdateDropsPendingRequestsProbability) {
                device.taskScheduler.dropPendingRequests()  // C3.7
            }
        case .viewDisappears, .viewAppears: app?.core.screen?.userNavigates(toView: action == .viewAppears)
        case .reboot:
            app?.terminate(.reboot)  // B3.1: no willTerminate on a reboot
            device.storage.reboot(at: device.now)
        case .appSwitcher: app?.resignActive(toAppSwitcher: true)
        case .incomingCall: app?.resignActive(toAppSwitcher: false)
        case .endCall: app?.becomeActiveAgain()
        case .forceQuit: app?.forceQuit()  // B3.2, B3.3
        case .memoryPressureKill: app?.jetsam()  // B3.4
        case .earlyExpiry: app?.expireOutstandingTasks(early: true)  // A3.3
        case .backgroundRefreshOff, .backgroundRefreshOn:
            device.isBackgroundRefreshEnabled = action == .backgroundRefreshOn
            device.emit(.backgroundRefreshChanged(enabled: device.isBackgroundRefreshEnabled))
        case .networkDown, .networkUp:
            device.isNetworkAvailable = action == .networkUp
            device.emit(.networkChanged(available: device.isNetworkAvailable))
            if action == .networkDown { app?.failRequestsInFlight(.networkConnectionLost) }  // loss fails work in flight
            app?.networkPathChanged()  // path monitors hear of it on their queues
            device.urlSessionServiceIfMade?.networkChanged(available: device.isNetworkAvailable)  // D1: transfers wait
        case .powerConnected, .powerDisconnected: device.isOnExternalPower = action == .powerConnected
        case .launchBackgroundTask: _ = device.taskScheduler.launchFirstEligible()
        case .expireBackgroundTask:
            if let tasks = app?.core.runningTasks, !tasks.isEmpty {
                device.taskScheduler.expire(device.choices.pick(from: tasks))
            }
        case .sceneDisconnect: app?.disconnectScene()
        case .silentPush: device.pushService.receive()  // D2
        case .backgroundFetch: device.fetchService.launch()  // D3
        case .accessoryWake: device.wakeForAccessory()  // D4
        case .userCancelsContinuedTask:
            if let tasks = app?.core.runningTasks.filter({ $0.isContinuedProcessing }), !tasks.isEmpty {
                device.taskScheduler.userCancelsContinuedTask(device.choices.pick(from: tasks))
            }
        }
    }
}

extension TaskSchedulerService {
    /// Launches one eligible request, drawn from the run's choices; false if none is eligible.
    @discardableResult
    func launchFirstEligible() -> Bool {
        let eligible = eligibleRequests()
        guard !eligible.isEmpty else { return false }
        let first = device.choices.pick(from: eligible)
        launch(first)
        // C4.3: the others may come in the same batch (no draw at all when batches are off).
        let batch = device.profile.batchLaunchProbability
        if batch > 0, eligible.count > 1, device.choices.bool(probability: batch) {
            for other in eligibleRequests() where other.identifier != first.identifier { launch(other) }
        }
        return true
    }
}

extension SimulatedBGTask {
    var isContinuedProcessing: Bool { kind.isContinuedProcessing }
}

