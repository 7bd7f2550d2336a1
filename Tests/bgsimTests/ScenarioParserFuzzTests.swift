import BackgroundTaskSimulator
import DeterministicSimulation
import SimulationFormats
import Foundation
import Testing

/// Issue 8: thousands of mutated scenario files through our own scenario parser. Every mutant
/// must load or fail with a ``ScenarioError`` whose message names the file; none may trap. The
/// mutants are derived from the real `Scenarios/*.json` with a fixed seed, so a failure here
/// reproduces exactly.
@Suite struct ScenarioParserFuzzTests {
    /// 250 per file in `swift test`, 2,000 under `BGSIM_TEST_SIZE=ci` (CI; the switch is described
    /// in BackgroundTaskSimulatorTests' `TestSize`); `BGSIM_PARSER_FUZZ_MUTANTS` sets it.
    static let mutantsPerFile: Int = {
        let environment = ProcessInfo.processInfo.environment
        let size = environment["BGSIM_TEST_SIZE"] == "ci" ? 2_000 : 250
        return Int(environment["BGSIM_PARSER_FUZZ_MUTANTS"] ?? "").map { max(100, $0) } ?? size
    }()

    @Test func mutatedScenarioFilesNeverTrap() throws {
        let files = try ScenarioFiles.all()
        #expect(files.count >= 7)
        var loaded = 0
        var rejected = 0
        for (fileIndex, file) in files.enumerated() {
            let original = Array(try #require(FileManager.default.contents(atPath: file)))
            let tree = try JSONParser().parse(original)
            var random = SplitMix64(seed: 0x5ce0_0000 + UInt64(fileIndex))
            for mutantIndex in 0..<Self.mutantsPerFile {
                let bytes = Mutator.mutant(of: original, tree: tree, random: &random)
                do {
                    let scenario = try ScenarioLoader.parse(bytes, file: "mutant.json")
                    _ = scenario.runSpec
                    loaded += 1
                } catch {
                    rejected += 1
                    let message = error.description
                    #expect(message.hasPrefix("mutant.json"), "mutant \(mutantIndex) of \(file): \(message)")
                    #expect(!message.contains("\n"), "one line: \(message)")
                }
            }
        }
        #expect(loaded + rejected == files.count * Self.mutantsPerFile)
        // Both outcomes must occur, or the mutator is too weak or too destructive to test anything.
        #expect(loaded > 100)
        #expect(rejected > 1_000)
    }
}

enum ScenarioFiles {
    static func all() throws -> [String] {
        let directory = PackageRoot.path + "/Scenarios"
        return try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".json") }.sorted().map { directory + "/" + $0 }
    }
}

/// Byte-level and tree-level mutations of a scenario file.
enum Mutator {
    static func mutant(of bytes: [UInt8], tree: JSONValue, random: inout SplitMix64) -> [UInt8] {
        switch random.next() % 8 {
        case 0: return flipBytes(bytes, random: &random)
        case 1: return truncate(bytes, random: &random)
        case 2: return deleteSpan(bytes, random: &random)
        case 3: return duplicateSpan(bytes, random: &random)
        default: return JSONWriter().bytes(for: mutateTree(tree, random: &random, depth: 0))
        }
    }

    static func flipBytes(_ bytes: [UInt8], random: inout SplitMix64) -> [UInt8] {
        var copy = bytes
        for _ in 0..<(1 + Int(random.next() % 4)) {
            let index = Int(random.next() % UInt64(copy.count))
            copy[index] = UInt8(truncatingIfNeeded: random.next())
        }
        return copy
    }

    static func truncate(_ bytes: [UInt8], random: inout SplitMix64) -> [UInt8] {
        Array(bytes.prefix(Int(random.next() % UInt64(bytes.count))))
    }

    static func deleteSpan(_ bytes: [UInt8], random: inout SplitMix64) -> [UInt8] {
        let start = Int(random.next() % UInt64(bytes.count))
        let length = min(bytes.count - start, 1 + Int(random.next() % 24))
        var copy = bytes
        copy.removeSubrange(start..<(start + length))
        return copy
    }

    static func duplicateSpan(_ bytes: [UInt8], random: inout SplitMix64) -> [UInt8] {
        let start = Int(random.next() % UInt64(bytes.count))
        let length = min(bytes.count - start, 1 + Int(random.next() % 40))
        var copy = bytes
        copy.insert(contentsOf: bytes[start..<(start + length)], at: start)
        return copy
    }

    /// Replaces, drops or adds one member somewhere in the tree.
    static func mutateTree(_ value: JSONValue, random: inout SplitMix64, depth: Int) -> JSONValue {
        guard case .object(var object) = value, !object.isEmpty else {
            return random.next() % 2 == 0 ? otherValue(random: &random) : value
        }
        let keys = object.keys
        let key = keys[Int(random.next() % UInt64(keys.count))]
        switch random.next() % 5 {
        case 0:
            _ = object.removeValue(forKey: key)
        case 1:
            object.set(otherValue(random: &random), forKey: key)
        case 2:
            object.set(otherValue(random: &random), forKey: key + (random.next() % 2 == 0 ? "s" : ""))
        default:
            if let child = object[key], depth < 4 {
                object.set(mutateTree(child, random: &random, depth: depth + 1), forKey: key)
            } else {
                object.set(otherValue(random: &random), forKey: key)
            }
        }
        return .object(object)
    }

    static let sampleValues: [JSONValue] = [
        .null, .bool(true), .bool(false), .int(0), .int(-1), .int(1), .int(Int64.max), .int(Int64.min),
        .double(0.5), .double(1.5), .double(-0.0), .double(1e308), .string(""), .string("all"), .string("pass"),
        .string("ios17"), .string("correct"), .string("0x1"), .string("0xZZ"), .string("18446744073709551616"),
        .array([]), .array([.string("every-begin-ended")]), .array([.int(1)]),
        .object([:]), .object(["violation": .string("no-double-end")]), .object(["min": .int(5), "max": .int(1)]),
        .object(["base": .string("ios12"), "budgetSeconds": .int(-3)]),
    ]

    static func otherValue(random: inout SplitMix64) -> JSONValue {
        sampleValues[Int(random.next() % UInt64(sampleValues.count))]
    }
}
