/// Realistic documents the parser fuzz test mutates: a scenario, a report, and edge values.
enum FuzzSeeds {
    static let scenario = #"""
        {
          "$schema": "../Scenarios/scenario.schema.json",
          "name": "upload-retry-expiry",
          "description": "Uploads files in the background; a planted bug forgets to end the task on expiry.\nSee \"README.md\" for the \\ details \u2014 ünïcödé 😀 \u00e9 \ud83d\ude00 \/",
          "workload": {"name": "uploader", "variant": "leaky-expiry", "files": [1, 2, 3, 5, 8, 13]},
          "profile": "ios17",
          "environment": {
            "transitions": {"background": 0.45, "foreground": 0.35, "suspend": 0.15, "terminate": 0.05},
            "timing": {"minSeconds": 0.5, "maxSeconds": 120.0, "jitter": 1e-3},
            "work": {"durationSeconds": [0.1, 2.5, 30], "chunks": 12},
            "faults": {"network": 0.02, "diskFull": 0.001, "clockSkewSeconds": -1.5E+2}
          },
          "campaign": {"runs": 10000, "seed": "0x00000000deadbeef", "horizonSeconds": 3600},
          "invariants": ["every-begin-ended", "no-double-end", "expiry-ends-task", "no-watchdog-kill"],
          "expect": {"violation": "expiry-ends-task"},
          "notes": null, "enabled": true, "weights": [[0, 1], [2, 3]], "empty": {}, "none": []
        }
        """#

    static let report = #"""
        {"schemaVersion":1,"seed":"0x000000000000002a","tool":{"name":"bgsim","version":"0.1.0"},
         "scenario":{"name":"smoke","file":"Scenarios/smoke.json"},
         "campaign":{"runs":3,"jobs":2,"shard":{"index":1,"count":1}},
         "summary":{"runs":3,"passed":2,"failed":1,"violations":{"no-double-end":1},"events":412,
           "simulatedSeconds":1800.25,"wallSeconds":0.031,"runsPerSecond":96.77,"eventsPerSecond":13290.3,
           "traceDigest":"9f86d081884c7d65"},
         "failures":[{"seed":"0x1b2c3d4e5f607182","invariant":"no-double-end","message":"task 7 ended twice\t(at t=12.5)",
           "replay":"bgsim replay Scenarios/smoke.json --seed 0x1b2c3d4e5f607182","choices":"AQIDBAU=",
           "originalEventCount":140,"shrunkEventCount":9,
           "trace":[{"t":0,"event":"launch"},{"t":1.5,"event":"begin","task":7},{"t":12.5,"event":"end","task":7},
                    {"t":12.5,"event":"end","task":7,"note":"\u0007bell \"quoted\""}]}]}
        """#

    static let edges = #"""
        [-0, 0, 9223372036854775807, -9223372036854775808, 9223372036854775808, 1e308, 5e-324, -1.5e-7,
         "\u0000\t\\\/\b\f\n\r", "", {"": {"": []}}, [[[[]]]], true, false, null, 0.1e+1, 12E3]
        """#

    static var all: [[UInt8]] {
        [scenario, report, edges].map { Array($0.utf8) }
    }

    /// Fragments that are interesting where they land: structure, escapes, numbers, bad bytes.
    static let fragments: [[UInt8]] = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud83d", "\\ude00", "\\uD83D\\uDE00", "\\x",
        "-", "0", "01", "1e", "1e999", "-1e-999", "1.", ".5", "NaN", "Infinity", "tru", "nul", "true",
        "null", "//", "/*", "'", "\u{FEFF}", "\t", "\n", "\r\n", " ", ",}", ",]", "\"a\":", "\"\":1,",
        "99999999999999999999", "-9223372036854775809", "{}", "[]", "\"😀\"", "\u{2028}",
    ].map { Array($0.utf8) } + [
        [0xFF], [0xFE], [0xC0, 0xAF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        [0xF0, 0x9F, 0x98], [0xE2, 0x80], [0xC3], [0x80], [0x00], [0x1F], [0x7F], [0xEF, 0xBB, 0xBF],
    ]
}
