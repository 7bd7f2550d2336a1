import Dispatch
import DeterministicSimulation
import Testing

/// Real Dispatch outside a run, in a binary that links the engine's C shims, which define
/// `dispatch_async` and friends (SimulationRuntimeShims). Meant for `.ci/tsan`: under
/// ThreadSanitizer the shims must pass each call on to TSan's interceptor, or every hand-over
/// through Dispatch is reported as a data race and the run fails (halt_on_error=1). In a plain
/// build it checks that the calls still reach Dispatch.
@Suite("Dispatch hand-over concurrency: the shims keep real Dispatch's ordering")
struct DispatchHandOffConcurrencyTests {
    /// App state with no lock: safe only because Dispatch orders the writes.
    final class Draft: @unchecked Sendable {
        var text = ""
    }

    @Test("an object written before DispatchQueue.async and changed in the block is handed over, not raced")
    func asyncHandsOver() {
        let group = DispatchGroup()
        let drafts = (0..<64).map { _ in Draft() }
        for (index, draft) in drafts.enumerated() {
            draft.text = "draft \(index)"
            group.enter()
            DispatchQueue.global().async {
                draft.text += ", saved"
                group.leave()
            }
        }
        group.wait()
        #expect(drafts.enumerated().allSatisfy { $0.element.text == "draft \($0.offset), saved" })
    }

    @Test("the same through asyncAfter and a barrier on a concurrent queue")
    func afterAndBarrierHandOver() {
        let queue = DispatchQueue(label: "drafts", attributes: .concurrent)
        let group = DispatchGroup()
        let drafts = (0..<32).map { _ in Draft() }
        for (index, draft) in drafts.enumerated() {
            draft.text = "draft \(index)"
            group.enter()
            if index.isMultiple(of: 2) {
                queue.asyncAfter(deadline: .now() + .milliseconds(1)) { draft.text += ", saved"; group.leave() }
            } else {
                queue.async(flags: .barrier) { draft.text += ", saved"; group.leave() }
            }
        }
        group.wait()
        #expect(drafts.enumerated().allSatisfy { $0.element.text == "draft \($0.offset), saved" })
    }
}
