import Testing
import SimulationFormats

/// The examples in the IO doc comments, run as written, so the docs cannot drift.
@Suite("IO doc examples")
struct IODocExamplesTests {
    @Test("JSONValue: the report example reads back its numbers")
    func jsonValue() {
        let report: JSONValue = [
            "schemaVersion": 1,
            "seed": "0x00000000000000ff",
            "summary": ["runs": 100, "passed": 99, "failed": 1],
        ]
        #expect(report["summary"]?["failed"]?.intValue == 1)
        let value: JSONValue = ["runs": 3]
        #expect("\(value)" == #"{"runs":3}"#)
    }

    @Test("JSONObject: append, replace in place, keys in order")
    func jsonObject() {
        var summary = JSONObject()
        summary.append("runs", 100)
        summary.append("failed", 1)
        summary["failed"] = 2
        #expect(summary.keys == ["runs", "failed"])
        #expect(summary["failed"] == 2)
    }

    @Test("JSONParser and JSONParseError: the documented value and error")
    func parser() throws {
        let value = try JSONParser().parse(#"{"campaign": {"runs": 100, "seed": "0x2a"}}"#)
        #expect(value["campaign"]?["runs"] == .int(100))
        #expect(try JSONParser().parse(Array(#"[1, 2.5, "x"]"#.utf8)) == [.int(1), .double(2.5), .string("x")])
        let error = #expect(throws: JSONParseError.self) { try JSONParser().parse(#"{"runs": 10,}"#) }
        #expect(error?.description == "line 1, column 12: trailing comma before '}'")
        #expect(error?.fix == "Remove the comma after the last member; JSON does not allow trailing commas.")
    }

    @Test("JSONWriter: the documented pretty and compact output")
    func writer() {
        let report: JSONValue = ["schemaVersion": 1, "seed": "0x000000000000002a", "ratio": 0.5,
                                 "tags": [], "tool": ["name": "bgsim"]]
        #expect(JSONWriter().string(for: report) == """
            {
              "schemaVersion": 1,
              "seed": "0x000000000000002a",
              "ratio": 0.5,
              "tags": [],
              "tool": {
                "name": "bgsim"
              }
            }

            """)
        #expect(JSONWriter(style: .compact).string(for: report)
            == #"{"schemaVersion":1,"seed":"0x000000000000002a","ratio":0.5,"tags":[],"tool":{"name":"bgsim"}}"#)
        #expect(JSONWriter.quoted("say \"hi\"\n") == #""say \"hi\"\n""#)
        #expect(JSONWriter.text(for: 1e-5) == "1e-05")
    }

    @Test("ConfigError: the documented one-line message")
    func configError() {
        let error = ConfigError(
            file: "Scenarios/smoke.json", path: "$.campaign.runs",
            problem: "expected an integer from 1 to 10000000, found -5",
            fix: "Set a positive number of runs.")
        #expect(error.description
            == "Scenarios/smoke.json: $.campaign.runs: expected an integer from 1 to 10000000, found -5. Set a positive number of runs.")
    }

    @Test("JSONObjectReader: the documented scenario example and its unknown-key error")
    func objectReader() throws {
        let bytes = Array(#"{"name": "smoke", "campaign": {"runs": 10, "horizonSecond": 60}}"#.utf8)
        var scenario = try JSONObjectReader.parse(bytes, file: "Scenarios/smoke.json")
        #expect(try scenario.required("name", as: String.self) == "smoke")
        var campaign = try scenario.object("campaign")
        #expect(try campaign.int("runs", in: 1...10_000_000, fix: "Set a positive number of runs.") == 10)
        #expect(try campaign.optionalDouble("horizonSeconds", in: 1...86_400) ?? 600 == 600)
        let error = #expect(throws: ConfigError.self) { try campaign.finish() }
        #expect(error?.description
            == "Scenarios/smoke.json: $.campaign.horizonSecond: unknown key 'horizonSecond'. Did you mean 'horizonSeconds'? Keys allowed in $.campaign: runs, horizonSeconds.")
        #expect(campaign.path(of: "runs") == "$.campaign.runs")
    }

    @Test("NearestName and XMLWriter escaping: the documented results")
    func smallHelpers() {
        #expect(NearestName.suggestion(for: "fsat", among: ["fast", "slow"]) == "fast")
        #expect(NearestName.editDistance(Array("ab".unicodeScalars), Array("ba".unicodeScalars)) == 1)
        #expect(XMLWriter.escapeText("a < b && c") == "a &lt; b &amp;&amp; c")
        #expect(XMLWriter.escapeText("bell\u{7}") == "bell\u{FFFD}")
        #expect(XMLWriter.escapeAttribute("say \"hi\"\n") == "say &quot;hi&quot;&#10;")
        #expect(OutputError(path: "Reports", reason: .isDirectory, systemMessage: nil).description
            == "Reports: cannot write: it is a directory. Give a file name inside it, such as 'Reports/report.json'.")
    }
}
