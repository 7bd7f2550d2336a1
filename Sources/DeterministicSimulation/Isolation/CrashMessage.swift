#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The message of a `no-crash` violation, made from what the dead child left: the last line it
/// wrote to stderr before bgsim's own banner (for a Swift trap, the runtime's `Fatal error: …`
/// line with its file and line), and the signal.
///
/// ```swift
/// CrashMessage.text(stderr: "Fatal error: Index out of range\nbgsim: CRASH: …", signal: SIGILL, status: 70 << 8)
/// // "the workload crashed: Fatal error: Index out of range (fatal signal SIGILL)"
/// CrashMessage.text(stderr: "bgsim: CRASH: …", signal: SIGSEGV, status: 70 << 8)
/// // "the workload crashed: no message (a bad memory access; … a stack overflow …) (fatal signal SIGSEGV)"
/// CrashMessage.text(stderr: "2026-01-01 00:30:26.000 app[5444:42c906c0] expired\nbgsim: CRASH: …", signal: SIGSEGV, status: 70 << 8)
/// // "the workload crashed: no message (…) (fatal signal SIGSEGV); the last line it logged: expired"
/// ```
///
/// `stderr` is what the crashing run itself wrote (``ChildConnection`` cuts off earlier runs' lines
/// and a test framework's). An `NSLog` line is no crash message: its text (without the time and
/// the process and thread ids in front, which differ between processes) follows the message as
/// the last line the run logged.
///
/// Contract: deterministic for a deterministic crash (no addresses or process ids are kept), and
/// the same whichever door ran the campaign: `program` (the tool's name, for the banner) is not
/// part of the text, which goes into the verdict's digest. It named the tool once, and then a
/// crashing campaign's digest depended on what the binary was called (`bgsim`, a copy under
/// another name, `ScenarioGate`, `WorkloadCampaign`).
enum CrashMessage {
    static func text(stderr: String, signal: Int32?, status: Int32) -> String {
        let lines = stderr.split(separator: "\n").map { $0.trimmingWhitespace }
            .filter { !$0.isEmpty && !CrashWording.isBannerLine($0) && !$0.hasPrefix("Current stack trace") }
        // The last line only: the message is part of the verdict's digest, and the run's earlier
        // lines are its own logging.
        var said = lines.last ?? ""
        var logged: String?
        if let text = loggedText(said) {
            logged = String(text.prefix(200))
            said = ""
        }
        let how: String
        if let signal {
            how = "fatal signal \(name(signal))"
        } else {
            how = ending(status: status) + (status & 0x7f != 0 ? "" : " before answering")
        }
        let words = said.isEmpty ? silentCrash(signal: signal) : String(said.prefix(400))
        return "the workload crashed: \(words) (\(how))" + (logged.map { "; the last line it logged: \($0)" } ?? "")
    }

    /// The text of an `NSLog` line (`2026-01-01 00:30:26.000 app[5444:42c906c0] text`), after the
    /// time and the process name and ids; nil for any other line.
    static func loggedText(_ line: String) -> Substring? {
        let bytes = Array(line.utf8)
        // "yyyy-MM-dd HH:mm:ss.SSS " : digits where the pattern has 9, the rest literally.
        let pattern = Array("9999-99-99 99:99:99.999 ".utf8)
        guard bytes.count > pattern.count else { return nil }
        for (byte, expected) in zip(bytes, pattern) {
            if expected == UInt8(ascii: "9") ? !(0x30...0x39).contains(byte) : byte != expected { return nil }
        }
        // "name[pid:thread] ": the first "] " after a "[" of digits, a colon and hex digits.
        guard let close = line.range(of: "] ", range: line.utf8.index(line.startIndex, offsetBy: pattern.count)..<line.endIndex),
              let open = line[..<close.lowerBound].lastIndex(of: "[") else { return nil }
        let ids = line[line.index(after: open)..<close.lowerBound].split(separator: ":", omittingEmptySubsequences: false)
        guard ids.count == 2, !ids[0].isEmpty, ids[0].allSatisfy(\.isNumber),
              !ids[1].isEmpty, ids[1].allSatisfy({ $0.isHexDigit || $0 == "x" }) else { return nil }
        return line[close.upperBound...]
    }

    /// What a crash that wrote no message of its own most likely was, by its signal.
    static func silentCrash(signal: Int32?) -> String {
        switch signal {
        case SIGSEGV, SIGBUS:
            "no message (a bad memory access; in Swift code usually a stack overflow from endless recursion, which "
                + "runs into the guard page under the thread's stack; replay it under a debugger to see the frames)"
        default:
            "no message (an optimized build traps without one: a force unwrap of nil, an index out of range, an "
                + "arithmetic overflow; replay it with a debug build (`swift build`) to see Swift's message)"
        }
    }

    /// How a child with wait status `status` ended: "killed by signal SIGKILL", "exit code 1".
    static func ending(status: Int32) -> String {
        status & 0x7f != 0 ? "killed by signal \(name(status & 0x7f))" : "exit code \((status >> 8) & 0xff)"
    }

    static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP"
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGFPE: "SIGFPE"
        case SIGABRT: "SIGABRT"
        case SIGKILL: "SIGKILL"
        default: "\(signal)"
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

extension Substring {
    var trimmingWhitespace: String {
        String(drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}
