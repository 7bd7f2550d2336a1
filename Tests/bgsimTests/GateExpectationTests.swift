import BGSimCommands
import Foundation
import Testing

/// Issue 18 part 2: `check` and `fuzz` judge every scenario by its expectation, and their JUnit
/// says what the gate says: a planted bug found as expected is green, a planted bug no longer
/// found and a correct workload that violates an invariant are red.
@Suite struct GateExpectationTests {
    static func scenario(_ name: String, workload: String, variant: String, expect: String, runs: Int = 12) -> String {
        """
        {
          "name": "\(name)",
          "workload": "\(workload)",
          "variant": "\(variant)",
          "profile": "ios17",
          "campaign": {"runs": \(runs), "seed": "0x1", "horizonSeconds": 120},
          "expect": \(expect)
        }
        """
    }

    /// A planted bug that is found, and a correct workload that holds.
    static func greenFolder() -> TemporaryFolder {
        let folder = TemporaryFolder()
        folder.write("a-planted.json", scenario("a-planted", workload: "download-manager", variant: "p1-overwritten-task-id",
                                               expect: #"{"violation": "every-begin-ended"}"#, runs: 24))
        folder.write("b-correct.json", scenario("b-correct", workload: "token", variant: "correct", expect: #""pass""#))
        return folder
    }

    /// The green folder plus a "planted bug" that is no longer found (a correct workload expecting
    /// one) and a buggy workload that expects to pass: both must fail the gate.
    static func redFolder() -> TemporaryFolder {
        let folder = greenFolder()
        folder.write("c-lost.json", scenario("c-lost", workload: "token", variant: "correct",
                                            expect: #"{"violation": "no-double-end"}"#))
        folder.write("d-buggy.json", scenario("d-buggy", workload: "download-manager", variant: "p1-overwritten-task-id",
                                             expect: #""pass""#, runs: 24))
        return folder
    }

    @Test("a green gate: check exits 0 and its JUnit has no failure, the planted bug's case included")
    func greenCheck() throws {
        let folder = Self.greenFolder()
        let junit = folder.path + "/junit.xml"
        let run = CLIRun(["check", folder.path, "--jobs", "2", "--quiet", "--junit", junit])
        #expect(run.code == .success, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.hasSuffix("2 of 2 scenarios met their expectation (1 planted bug found as expected, "
            + "1 held every invariant)\n"))
        #expect(run.stdout.contains("): every invariant held in 12 runs, as expected; rules out, at 95% confidence, "
            + "any failure that shows in at least 1 run in 4\n"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuites name="bgsim" tests="2" failures="0">"#))
        #expect(xml.contains(#"<testcase classname="a-planted" name="expect violation every-begin-ended">"#
            + "\n      <system-out>expect violation every-begin-ended: found every-begin-ended as expected"))
        #expect(xml.contains(#"<testcase classname="b-correct" name="expect pass">"#
            + "\n      <system-out>expect pass: every invariant held in 12 runs, as expected"))
        #expect(!xml.contains("<failure"))
    }

    @Test("a red gate: check exits 1 with one stderr line, and JUnit fails exactly the missed scenarios")
    func redCheck() throws {
        let folder = Self.redFolder()
        let junit = folder.path + "/junit.xml"
        let run = CLIRun(["check", folder.path, "--jobs", "2", "--quiet", "--junit", junit])
        #expect(run.code == .violation)
        #expect(run.errorLines.count == 1)
        #expect(run.stderr.hasPrefix("bgsim check: 2 of 4 scenarios did not meet their expectation (c-lost: the planted "
            + "bug was not found: no no-double-end violation in 12 runs; d-buggy: expected no violation, but found "))
        #expect(run.stdout.contains("FAIL c-lost (expect violation no-double-end"))
        #expect(run.stdout.contains("ok   a-planted (expect violation every-begin-ended"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuites name="bgsim" tests="4" failures="2">"#))
        #expect(xml.contains(#"<testcase classname="c-lost" name="expect violation no-double-end">"#
            + "\n      <failure message=\"the planted bug was not found: no no-double-end violation in 12 runs\" type=\"expectation\">"))
        #expect(xml.contains(#"<testcase classname="d-buggy" name="expect pass">"#
            + "\n      <failure message=\"expected no violation, but found "))
        #expect(xml.contains(#"<testsuite name="a-planted" tests="1" failures="0""#))
    }

    @Test("fuzz judges by expectation too: exit 0 when all were met, 1 with the contract's stderr line when not")
    func fuzzExpectations() {
        let green = CLIRun(["fuzz", Self.greenFolder().path, "--jobs", "2", "--quiet"])
        #expect(green.code == .success, "\(green.stderr)")
        #expect(green.stdout.contains("  expectation met (expect pass): every invariant held in 12 runs, as expected"))
        let red = CLIRun(["fuzz", Self.redFolder().path, "--jobs", "2", "--quiet"])
        #expect(red.code == .violation)
        #expect(red.errorLines.count == 1 && red.stderr.hasPrefix("bgsim fuzz: 2 of 4 scenarios did not meet their expectation"))
        #expect(red.stdout.contains("  EXPECTATION NOT MET (expect violation no-double-end): the planted bug was not found"))
        #expect(red.stdout.contains("  VIOLATION every-begin-ended in "))
        #expect(red.stdout.contains("  FOUND every-begin-ended in "))
        #expect(red.stdout.contains("  ALSO expiry-ends-task in 11 of 24 runs\n"))
        #expect(red.stdout.hasSuffix("2 of 4 scenarios met their expectation (1 planted bug found as expected, "
            + "1 held every invariant); missed: c-lost, d-buggy\n"))
    }

    @Test("a shard that does not find the planted bug is undecided, not a failure")
    func undecidedShard() {
        let folder = TemporaryFolder()
        let file = folder.write("lost.json", Self.scenario("lost", workload: "token", variant: "correct",
                                                           expect: #"{"violation": "no-double-end"}"#))
        let shard = CLIRun(["fuzz", file, "--shard", "1/2", "--jobs", "1", "--quiet"])
        #expect(shard.code == .success, "\(shard.stderr)")
        #expect(shard.stdout.contains("expectation undecided (expect violation no-double-end): no-double-end not found "
            + "in this shard's 6 runs"))
        let whole = CLIRun(["fuzz", file, "--jobs", "1", "--quiet"])
        #expect(whole.code == .violation)
        // Merged, the shards decide: the planted bug was not found anywhere, so merge exits 1.
        let second = CLIRun(["fuzz", file, "--shard", "2/2", "--jobs", "1", "--quiet",
                             "--report", folder.path + "/s2.json"])
        let first = CLIRun(["fuzz", file, "--shard", "1/2", "--jobs", "1", "--quiet",
                            "--report", folder.path + "/s1.json"])
        #expect(first.code == .success && second.code == .success)
        let merge = CLIRun(["merge", folder.path + "/s1.json", folder.path + "/s2.json",
                            "--report", folder.path + "/merged.json"])
        #expect(merge.code == .violation)
        #expect(merge.errorLines == ["bgsim merge: lost did not meet its expectation: the planted bug was not found: "
            + "no no-double-end violation in 12 runs"])
    }
}
