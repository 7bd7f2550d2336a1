#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import SimulationRuntime

/// What the crash handler and the hang watchdog write, with nothing but `write(2)` on memory
/// made beforehand (``CrashSlot``, ``CrashSignals/State``), through `SignalSafeOutput`
/// (SimulationRuntime): no allocation, no lock, no formatting by the Swift runtime.
///
/// ```swift
/// SignalSafeOutput.write(2, header)             // "bgsim: CRASH: fatal signal SIGILL (…)"
/// CrashOutput.writeRuns(repeating: header)      // " during run seed 0x… of …\nbgsim: replay: …\n"
/// ```
///
/// Contract: every function here is async-signal-safe (see ``CrashSignals``); the crash dump of
/// an isolated worker's choices writes
/// `X\t<signal>\t<outcomes>\t<actions>\t<fallbacks>\t<idle steps>\t<stderr offset>\n` (the
/// offset: where stderr stood when the run began, ``CrashSlot/stderrOffset``) followed by the
/// outcomes (8 bytes each, little-endian), the actions (first draw, stop draw, skippable: 8
/// bytes each) and the idle steps (two 8-byte bounds each), which ``ChildConnection`` reads back.
enum CrashOutput {
    /// Writes the calling thread's run (its slot's text) if it has one in progress; otherwise
    /// the text of every run in progress, each after `header` again. Returns how many runs it
    /// wrote.
    @discardableResult
    static func writeRuns(repeating header: [UInt8]) -> Int {
        let token = CrashSignals.slotToken.value
        if token > 0, token <= CrashSlot.count {
            let slot = CrashSlot.table[token - 1]
            if slot.running.load(ordering: .acquiring) {
                slot.banner.write(to: 2)
                return 1
            }
        }
        var written = 0
        for slot in CrashSlot.table where slot.running.load(ordering: .acquiring) {
            if written > 0 { SignalSafeOutput.write(2, header) }
            slot.banner.write(to: 2)
            written += 1
        }
        return written
    }

    /// The calling thread's slot when it does harness work with no run in progress on it
    /// (``CrashSlot/beginHarness(_:)``): a fault there is bgsim's own.
    static func harnessSlot() -> CrashSlot? {
        let token = CrashSignals.slotToken.value
        guard token > 0, token <= CrashSlot.count else { return nil }
        let slot = CrashSlot.table[token - 1]
        guard slot.inHarness.load(ordering: .acquiring), !slot.running.load(ordering: .acquiring) else { return nil }
        return slot
    }

    /// An isolated worker's dump of the crashing run's choices to `answers`, its answer
    /// descriptor (see the type's contract); nothing when the thread's slot has no source.
    static func dumpChoices(signal: Int32, scratch: UnsafeMutablePointer<UInt8>, to answers: Int32) {
        let token = CrashSignals.slotToken.value
        var slot: CrashSlot?
        if token > 0, token <= CrashSlot.count { slot = CrashSlot.table[token - 1] }
        if slot?.source == nil { slot = CrashSlot.table.first { $0.source != nil } }
        guard let slot, let source = slot.source else { return }
        let stderrOffset = slot.stderrOffset
        let fallbacks = source.fallbackCount
        source.withCrashDump { outcomes, actions, idleSteps in
            var length = 0
            func put(_ byte: UInt8) { scratch[length] = byte; length += 1 }
            func number(_ value: Int) {
                var digits = 0
                var rest = value
                repeat { digits += 1; rest /= 10 } while rest > 0
                rest = value
                for position in (0..<digits).reversed() {
                    scratch[length + position] = 0x30 + UInt8(rest % 10)
                    rest /= 10
                }
                length += digits
            }
            put(0x58)  // X
            put(0x09); number(Int(signal))  // six fields, no array: a literal would allocate
            put(0x09); number(outcomes.count)
            put(0x09); number(actions.count)
            put(0x09); number(fallbacks)
            put(0x09); number(idleSteps.count)
            put(0x09); number(stderrOffset)
            put(0x0a)
            SignalSafeOutput.write(answers, scratch, length)
            if let base = outcomes.baseAddress {
                base.withMemoryRebound(to: UInt8.self, capacity: outcomes.count * 8) {
                    SignalSafeOutput.write(answers, $0, outcomes.count * 8)
                }
            }
            // Field by field through the buffer, never a copy of an action: a copy would retain
            // its `choice` (not written: a dumped run's actions carry no choices).
            for index in actions.indices {
                let action = actions.baseAddress! + index
                var triple = (UInt64(action.pointee.firstDraw), UInt64(action.pointee.stopDraw),
                              action.pointee.isSkippable ? UInt64(1) : 0)
                withUnsafeBytes(of: &triple) { raw in
                    SignalSafeOutput.write(answers, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), 24)
                }
            }
            for step in idleSteps {
                var pair = (UInt64(step.lowerBound), UInt64(step.upperBound))
                withUnsafeBytes(of: &pair) { raw in
                    SignalSafeOutput.write(answers, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), 16)
                }
            }
        }
    }
}
