import DeterministicSimulation
import Foundation

/// Wall-clock and process CPU time since it was made: how the bench times a shrink
/// (``ShrinkTiming``) and a campaign beside busy processes (``BusyMachine``).
///
/// ```swift
/// let stopwatch = CPUStopwatch()
/// let shrink = Shrinker.shrink(choices, target: target, while: invariant)
/// print(stopwatch.wallSeconds, stopwatch.cpuSeconds ?? .nan)
/// ```
///
/// Contract: ``cpuSeconds`` counts every thread of the process (`CLOCK_PROCESS_CPUTIME_ID`) and is
/// nil where that clock cannot be read. Read each once, wall first, right after the work.
struct CPUStopwatch {
    private let cpuStart = Self.processCPUSeconds()
    private let wall = WallClock()

    /// Wall-clock seconds since the stopwatch was made.
    var wallSeconds: Double { wall.elapsedSeconds }

    /// The process's CPU seconds since the stopwatch was made, all threads.
    var cpuSeconds: Double? {
        Self.processCPUSeconds().flatMap { end in cpuStart.map { end - $0 } }
    }

    /// The CPU time the process used so far, all threads.
    private static func processCPUSeconds() -> Double? {
        var now = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now) == 0 else { return nil }
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
