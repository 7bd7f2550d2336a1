import Testing
import SimulationFormats

@Suite("JSONObjectReader")
struct JSONObjectReaderTests {
    enum Family: String, CaseIterable { case ios17, ios18 }

    static let file = "Scenarios/x.json"

    /// A reader over `text` (which must parse), or a failed expectation.
    func reader(_ text: String) throws -> JSONObjectReader {
        try JSONObjectReader.parse(Array(text.utf8), file: Self.file)
    }

    /// The one-line description of the `ConfigError` that `body` throws.
    func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as ConfigError {
            return error.description
        } catch {
            return "not a ConfigError: \(error)"
        }
    }

    @Test("a well-formed scenario reads completely and finishes")
    func readsScenario() throws {
        var root = try reader(#"""
            {"$schema": "s.json", "name": "smoke", "profile": "ios18", "enabled": true,
             "campaign": {"runs": 1e3, "seed": "0x2a", "horizonSeconds": 600},
             "environment": {"faults": {"crash": 0, "hang": 0.25}},
             "invariants": ["no-double-end", "every-begin-ended"],
             "failures": [{"seed": "0x1"}], "notes": null}
            """#)
        root.allow("$schema")
        #expect(try root.required("name", as: String.self) == "smoke")
        #expect(try root.choice("profile", as: Family.self) == .ios18)
        #expect(try root.optional("enabled", as: Bool.self) == true)
        #expect(try root.optional("quiet", as: Bool.self) == nil)
        #expect(try root.optional("notes", as: String.self) == nil)
        var campaign = try root.object("campaign")
        #expect(try campaign.int("runs", in: 1...10_000_000) == 1000)
        #expect(try campaign.required("seed", as: String.self) == "0x2a")
        #expect(try campaign.double("horizonSeconds", in: 1...86_400) == 600)
        #expect(try campaign.optionalInt("jobs", in: 1...64) == nil)
        try campaign.finish()
        var environment = try root.object("environment")
        let faultsValue = try environment.optionalObject("faults")
        var faults = try #require(faultsValue)
        #expect(try faults.probability("crash") == 0)
        #expect(try faults.optionalProbability("hang") == 0.25)
        try faults.finish()
        try environment.finish()
        let invariantsValue = root.value("invariants")
        let invariants = try #require(invariantsValue)
        #expect(try invariants.array(of: String.self) == ["no-double-end", "every-begin-ended"])
        let failures = try root.array("failures")
        var first = try failures[0].object()
        #expect(first.path == "$.failures[0]")
        #expect(try first.required("seed", as: String.self) == "0x1")
        try first.finish()
        root.allow("notes")
        try root.finish()
        #expect(root.knownKeys == ["$schema", "name", "profile", "enabled", "quiet", "notes", "campaign",
                                   "environment", "invariants", "failures"])
    }

    @Test("a value of the wrong type names the path, what was found and how to fix it")
    func wrongType() throws {
        var campaign = try reader(#"{"runs": "5", "name": 5, "enabled": "true", "rate": [1]}"#)
        #expect(message { _ = try campaign.int("runs", in: 1...10_000_000) }
            == #"Scenarios/x.json: $.runs: expected an integer from 1 to 10000000, found "5" (a string). Remove the quotes: write 5, not "5"."#)
        #expect(message { _ = try campaign.required("name", as: String.self) }
            == "Scenarios/x.json: $.name: expected a string, found 5. Set 'name' to a string.")
        #expect(message { _ = try campaign.required("enabled", as: Bool.self) }
            == #"Scenarios/x.json: $.enabled: expected true or false, found "true" (a string). Remove the quotes: write true, not "true"."#)
        #expect(message { _ = try campaign.optionalDouble("rate", in: 0...1) }
            == "Scenarios/x.json: $.rate: expected a number from 0 to 1, found an array of 1 element. Set 'rate' to a number from 0 to 1.")
    }

    @Test("a number out of range says the range and uses the caller's fix")
    func outOfRange() throws {
        var campaign = try reader(#"{"runs": -5, "horizonSeconds": 0.5, "jobs": 2.5, "big": 1e300}"#)
        #expect(message { _ = try campaign.int("runs", in: 1...10_000_000, fix: "Set a positive number of runs.") }
            == "Scenarios/x.json: $.runs: expected an integer from 1 to 10000000, found -5. Set a positive number of runs.")
        #expect(message { _ = try campaign.double("horizonSeconds", in: 1...86_400) }
            == "Scenarios/x.json: $.horizonSeconds: expected a number from 1 to 86400, found 0.5. Set 'horizonSeconds' to a number from 1 to 86400.")
        #expect(message { _ = try campaign.int("jobs", in: 1...Int.max) }
            == "Scenarios/x.json: $.jobs: expected an integer of at least 1, found 2.5. Set 'jobs' to an integer of at least 1.")
        #expect(message { _ = try campaign.int("big", in: Int.min...Int.max) }
            == "Scenarios/x.json: $.big: expected an integer, found 1e+300. Set 'big' to an integer.")
    }

    @Test("a probability outside 0...1 is rejected at its nested path")
    func probability() throws {
        var root = try reader(#"{"environment": {"faults": {"crash": 1.5}}}"#)
        var environment = try root.object("environment")
        var faults = try environment.object("faults")
        #expect(message { _ = try faults.probability("crash") }
            == "Scenarios/x.json: $.environment.faults.crash: expected a probability from 0 to 1, found 1.5. Set 'crash' to a probability from 0 to 1.")
    }

    @Test("a missing required key is reported at its object, suggesting a misspelled key")
    func missingKey() throws {
        var campaign = try reader(#"{"runz": 5, "name": null}"#)
        #expect(message { _ = try campaign.int("runs", in: 1...10) }
            == "Scenarios/x.json: $: missing required key 'runs'. Rename 'runz' to 'runs'.")
        #expect(message { _ = try campaign.required("seed", as: String.self) }
            == #"Scenarios/x.json: $: missing required key 'seed'. Add "seed" with a string."#)
        #expect(message { _ = try campaign.required("name", as: String.self) }
            == "Scenarios/x.json: $.name: expected a string, found null. Set 'name' to a string.")
    }

    @Test("finish rejects unknown keys, suggesting the nearest known key")
    func unknownKeyWithSuggestion() throws {
        var root = try reader(#"{"campaign": {"runs": 1, "seed": "0x1", "horizonSecond": 60}}"#)
        var campaign = try root.object("campaign")
        _ = try campaign.int("runs", in: 1...10)
        _ = try campaign.required("seed", as: String.self)
        _ = try campaign.optionalDouble("horizonSeconds", in: 1...86_400)
        #expect(message { try campaign.finish() }
            == "Scenarios/x.json: $.campaign.horizonSecond: unknown key 'horizonSecond'. Did you mean 'horizonSeconds'? Keys allowed in $.campaign: runs, seed, horizonSeconds.")
    }

    @Test("finish lists every unknown key and the allowed ones when nothing is close")
    func unknownKeysWithoutSuggestion() throws {
        var root = try reader(#"{"name": "x", "colour": "red", "odd key": 1, "size": 3}"#)
        _ = try root.required("name", as: String.self)
        #expect(message { try root.finish() }
            == "Scenarios/x.json: $.colour: unknown key 'colour' (and 2 more: 'odd key', 'size'). Remove it. Keys allowed in $: name.")
        let empty = try reader(#"{"odd key": 1}"#)
        #expect(message { try empty.finish() }
            == #"Scenarios/x.json: $["odd key"]: unknown key 'odd key'. Remove it. No keys are allowed in $."#)
    }

    @Test("an enumeration value not allowed lists the allowed values and the nearest one")
    func enumValue() throws {
        var root = try reader(#"{"profile": "ios81", "mode": "turbo", "family": 17}"#)
        #expect(message { _ = try root.choice("profile", as: Family.self) }
            == #"Scenarios/x.json: $.profile: expected one of "ios17", "ios18", found "ios81". Did you mean "ios18"?"#)
        #expect(message { _ = try root.string("mode", oneOf: ["fast", "slow"]) }
            == #"Scenarios/x.json: $.mode: expected one of "fast", "slow", found "turbo". Set 'mode' to one of the listed values."#)
        #expect(message { _ = try root.optionalChoice("family", as: Family.self) }
            == #"Scenarios/x.json: $.family: expected one of "ios17", "ios18", found 17. Set 'family' to one of "ios17", "ios18"."#)
    }

    @Test("array elements have index paths, counting from 0")
    func arrayPaths() throws {
        var root = try reader(#"{"invariants": ["every-begin-ended", 5], "failures": [{"seed": "0x1"}, {"sed": "0x2"}], "m": [[1, "x"]]}"#)
        let invariants = try root.array("invariants")
        #expect(message { _ = try invariants[1].read(as: String.self) }
            == "Scenarios/x.json: $.invariants[1]: expected a string, found 5. Set 'invariants[1]' to a string.")
        let failures = try root.array("failures")
        var second = try failures[1].object()
        #expect(message { _ = try second.required("seed", as: String.self) }
            == "Scenarios/x.json: $.failures[1]: missing required key 'seed'. Rename 'sed' to 'seed'.")
        let matrix = try root.array("m")
        #expect(message { _ = try matrix[0].array(of: Int.self) }
            == #"Scenarios/x.json: $.m[0][1]: expected an integer, found "x" (a string). Set 'm[0][1]' to an integer."#)
        #expect(message { _ = try root.array("missing") }
            == #"Scenarios/x.json: $: missing required key 'missing'. Add "missing" with an array."#)
    }

    @Test("a nested value of the wrong container type names its path")
    func wrongContainer() throws {
        var root = try reader(#"{"campaign": [1, 2], "list": {}}"#)
        #expect(message { _ = try root.object("campaign") }
            == "Scenarios/x.json: $.campaign: expected an object, found an array of 2 elements. Set 'campaign' to an object.")
        #expect(message { _ = try root.optionalArray("list") }
            == "Scenarios/x.json: $.list: expected an array, found an empty object. Set 'list' to an array.")
    }

    @Test("the document must be an object and parse; syntax errors use FILE:LINE:COLUMN")
    func documentErrors() {
        #expect(message { _ = try JSONObjectReader.parse(Array("[1, 2]".utf8), file: Self.file) }
            == "Scenarios/x.json: $: expected an object, found an array of 2 elements. Set the top-level value to an object.")
        #expect(message { _ = try JSONObjectReader.parse(Array("{\n  \"a\": 1\n  \"b\": 2\n}".utf8), file: Self.file) }
            == "Scenarios/x.json:3:3: expected ',' or '}' after an object member, found '\"'. Add a ',' between members or a '}' to close the object.")
        #expect(message { _ = try JSONObjectReader.parse([], file: Self.file) }
            == "Scenarios/x.json:1:1: the file is empty. Write a JSON value into it, for example {}.")
    }

    @Test("custom errors for domain checks use the same one-line format")
    func customErrors() throws {
        let root = try reader(#"{"expect": {"violation": "nope"}}"#)
        let error = root.error(at: "expect", problem: "unknown invariant \"nope\"\nin expect",
                               fix: "Run `bgsim list` to see the invariant ids.")
        #expect(error.description
            == "Scenarios/x.json: $.expect: unknown invariant \"nope\" in expect. Run `bgsim list` to see the invariant ids.")
        #expect(error.location == "$.expect")
        #expect(root.path(of: "every-begin-ended") == #"$["every-begin-ended"]"#)
    }

    @Test("near-name suggestions use a length-scaled edit-distance threshold")
    func suggestions() {
        #expect(NearestName.suggestion(for: "horizonSecond", among: ["runs", "horizonSeconds"]) == "horizonSeconds")
        #expect(NearestName.suggestion(for: "Runs", among: ["seed", "runs"]) == "runs")
        #expect(NearestName.suggestion(for: "sede", among: ["seed", "runs"]) == "seed")
        #expect(NearestName.suggestion(for: "colour", among: ["runs", "seed"]) == nil)
        #expect(NearestName.suggestion(for: "ab", among: ["ac"]) == nil)
        #expect(NearestName.editDistance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars)) == 3)
    }
}

@Suite("JSONValueReader by path")
struct JSONValueReaderPathTests {
    static let document: JSONValue = ["summary": ["runs": 3, "extra": true], "name": "x"]

    @Test("member(_:) reads nested values, allowing keys nobody reads")
    func reads() throws {
        let reader = JSONValueReader(Self.document, file: "report 1")
        #expect(try reader.member("summary", "runs").read(as: Int.self) == 3)
        #expect(try reader.member("summary", "runs").path == "$.summary.runs")
        #expect(try reader.member().value == Self.document)
    }

    @Test("a missing key or a non-object on the way is an error at the full path")
    func errors() {
        let reader = JSONValueReader(Self.document, file: "report 2")
        #expect(throws: ConfigError(file: "report 2", path: "$.summary.wall", problem: "missing required key 'wall'",
                                    fix: "Add \"wall\" with a value.")) {
            try reader.member("summary", "wall")
        }
        #expect(throws: ConfigError(file: "report 2", path: "$.name", problem: "expected an object, found \"x\" (a string)",
                                    fix: "Set 'name' to an object.")) {
            try reader.member("name", "runs")
        }
    }
}
