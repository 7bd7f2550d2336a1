public import DeterministicSimulation
package import SimulationFormats

/// One failure a campaign saved in a ``FailureStore`` (`bgsim fuzz`: the failure database):
/// which scenario and invariant, and the shrunk choices that reproduce it. One JSON file each
/// in a ``DirectoryFailureStore`` (format version 1, documented in README.md, "The failure
/// database").
///
/// ```swift
/// let saved = SavedFailure(scenarioName: "token-correct-ios17", scenarioFile: "Scenarios/token-correct-ios17.json",
///                          invariant: "every-begin-ended", message: "task 3 never ended",
///                          choices: record.choices, seed: record.seed, campaignSeed: Seed(0x2a),
///                          toolVersion: "0.1.0")
/// saved.fileName   // "token-correct-ios17--every-begin-ended.json"
/// ```
///
/// Contract: ``json`` and ``init(json:file:)`` round-trip; a file of another `formatVersion`, or
/// one that lacks a field, is rejected with a ``FailureStoreError`` naming the file and field.
public struct SavedFailure: Sendable, Equatable {
    public static let formatVersion: Int64 = 1

    public var scenarioName: String
    public var scenarioFile: String
    public var invariant: String
    /// The violation's message when it was found.
    public var message: String
    /// The shrunk choice sequence: what is replayed.
    public var choices: ChoiceSequence
    /// The run seed of the original failing run (a replay by seed).
    public var seed: Seed
    public var campaignSeed: Seed
    /// The version of the tool that saved it.
    public var toolVersion: String
    /// The name of the tool that saved it (`tool.name` in the file).
    public var toolName = "bgsim"
    /// The exploration strategy the run came from (`strategy` in the file): the choices mean
    /// that strategy's run. A file without it was saved before strategies, by a `random` run.
    public var strategy: ExplorationStrategy = .random
    /// What its choices mean (``ChoiceMeaning``; `choiceMeaning` in the file): the version of the
    /// engine's use of choices it was found under. A file without it was saved before versions
    /// were recorded (``ChoiceMeaning/unrecorded``).
    public var choiceMeaning: Int64 = ChoiceMeaning.current

    /// `<scenario>--<invariant>.json`, with characters other than letters, digits, `.`, `_` and
    /// `-` replaced by `_`: one file per scenario and invariant.
    public var fileName: String {
        func safe(_ text: String) -> String {
            String(text.unicodeScalars.map { scalar in
                scalar.value < 128 && (scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar))
                    || "._-".unicodeScalars.contains(scalar)) ? Character(scalar) : "_"
            })
        }
        return "\(safe(scenarioName))--\(safe(invariant)).json"
    }

    package var json: JSONValue {
        var object = JSONObject()
        object.append("formatVersion", .int(Self.formatVersion))
        object.append("scenario", ["name": JSONValue(scenarioName), "file": JSONValue(scenarioFile)])
        object.append("invariant", JSONValue(invariant))
        object.append("message", JSONValue(message))
        object.append("choices", JSONValue(choices.token))
        object.append("seed", JSONValue(seed.description))
        object.append("campaignSeed", JSONValue(campaignSeed.description))
        object.append("tool", ["name": JSONValue(toolName), "version": JSONValue(toolVersion)])
        object.append("strategy", JSONValue(strategy.rawValue))
        object.append("choiceMeaning", .int(choiceMeaning))
        return .object(object)
    }

    public init(scenarioName: String, scenarioFile: String, invariant: String, message: String, choices: ChoiceSequence,
         seed: Seed, campaignSeed: Seed, toolVersion: String, strategy: ExplorationStrategy = .random) {
        self.scenarioName = scenarioName
        self.scenarioFile = scenarioFile
        self.invariant = invariant
        self.message = message
        self.choices = choices
        self.seed = seed
        self.campaignSeed = campaignSeed
        self.toolVersion = toolVersion
        self.strategy = strategy
    }

    /// Reads a saved failure; `file` names it in errors.
    ///
    /// - Throws: ``FailureStoreError`` (``FailureStoreError/Kind/badField``) naming the file and
    ///   the field (`$.choices`, `$.seed`, …) for anything that is not what ``json`` writes:
    ///   another version, a missing field, a wrong type, a bad choices token or seed. Never traps.
    package init(json value: JSONValue, file: String) throws(FailureStoreError) {
        func fail(_ problem: String) -> FailureStoreError { FailureStoreError(.badField, "\(file): \(problem)") }
        guard let version = value["formatVersion"]?.intValue else {
            throw fail("not a saved failure ($.formatVersion is missing or not an integer)")
        }
        guard version == Self.formatVersion else {
            throw fail("formatVersion is \(version); this bgsim reads version \(Self.formatVersion)")
        }
        func string(_ text: JSONValue?, _ name: String) throws(FailureStoreError) -> String {
            guard let text = text?.stringValue else { throw fail("$.\(name) is missing or not a string") }
            return text
        }
        func readSeed(_ name: String) throws(FailureStoreError) -> Seed {
            let text = try string(value[name], name)
            do { return try Seed(parsing: text) } catch { throw fail("$.\(name): \(error)") }
        }
        scenarioName = try string(value["scenario"]?["name"], "scenario.name")
        scenarioFile = try string(value["scenario"]?["file"], "scenario.file")
        invariant = try string(value["invariant"], "invariant")
        message = try string(value["message"], "message")
        toolVersion = try string(value["tool"]?["version"], "tool.version")
        if let name = value["strategy"] {
            guard let strategy = ExplorationStrategy(rawValue: try string(name, "strategy")) else {
                throw fail("$.strategy is not one of \(ExplorationStrategy.names)")
            }
            self.strategy = strategy
        }
        if let meaning = value["choiceMeaning"] {
            guard let version = meaning.intValue, version >= 1 else {
                throw fail("$.choiceMeaning is not a version number (an integer from 1)")
            }
            choiceMeaning = version
        } else {
            choiceMeaning = ChoiceMeaning.unrecorded
        }
        let token = try string(value["choices"], "choices")
        do { choices = try ChoiceSequence(token: token) } catch { throw fail("$.choices: \(error)") }
        seed = try readSeed("seed")
        campaignSeed = try readSeed("campaignSeed")
    }
}
