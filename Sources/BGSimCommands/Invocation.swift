import Foundation

/// How `bgsim` was invoked, so that the replay commands it prints run as printed.
///
/// ```swift
/// Invocation.prefix(argv0: ".build/x86_64-unknown-linux-gnu/debug/bgsim", environment: [:])
/// // "swift run bgsim"
/// Invocation.prefix(argv0: ".build/x86_64-unknown-linux-gnu/release/bgsim", environment: [:])
/// // "swift run -c release bgsim"
/// Invocation.prefix(argv0: ".build/release/bgsim", environment: [:])   // ".build/release/bgsim"
/// Invocation.prefix(argv0: "bgsim", environment: [:])                  // "bgsim" (found on PATH)
/// Invocation.prefix(argv0: "x", environment: ["BGSIM_INVOCATION": "make bgsim ARGS="])  // "make bgsim ARGS="
/// ```
///
/// Contract, in this order:
/// 1. `BGSIM_INVOCATION`, when set and not empty, is the prefix, verbatim (for wrappers).
/// 2. `swift run` executes the product at `<build>/<triple>/<debug|release>/<name>`, with `argv[0]`
///    relative to the working directory (SwiftPM 5.x and 6.x, Linux and macOS; it sets no
///    variable of its own): such a path gives `swift run [-c release] <name>`, with
///    `--package-path DIR` when the build folder `.build` is not in the working directory and
///    `--build-path DIR` when the build folder is not named `.build`. The same path typed by
///    hand is printed the same way, which runs the same binary.
/// 3. Otherwise the path as invoked (`.build/release/bgsim`, `/usr/local/bin/bgsim`), or the bare
///    name when it was found on `PATH`.
/// Words with characters a POSIX shell would interpret are single-quoted.
public enum Invocation {
    /// The environment variable that overrides detection.
    public static let variable = "BGSIM_INVOCATION"

    /// The program's name for its messages: the last component of `argv[0]`, or `bgsim` when it
    /// has none.
    ///
    /// ```swift
    /// Invocation.toolName(argv0: ".build/debug/upload-bgsim")   // "upload-bgsim"
    /// ```
    public static func toolName(argv0: String) -> String {
        argv0.split(separator: "/").last.map(String.init) ?? "bgsim"
    }

    public static func prefix(argv0: String, environment: [String: String]) -> String {
        if let given = environment[variable], !given.isEmpty { return given }
        let parts = argv0.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 4, !argv0.isEmpty else { return argv0.isEmpty ? "bgsim" : shellWord(argv0) }
        let name = parts[parts.count - 1]
        let configuration = parts[parts.count - 2]
        let triple = parts[parts.count - 3]
        let buildFolder = parts[parts.count - 4]
        guard ["debug", "release"].contains(configuration), isTriple(triple), !name.isEmpty else {
            return shellWord(argv0)
        }
        let packageParts = parts.dropLast(4)
        let packagePath = packageParts.joined(separator: "/")
        var words = ["swift", "run"]
        if buildFolder != ".build" {
            words += ["--build-path", shellWord((packageParts + [buildFolder]).joined(separator: "/"))]
        } else if !packagePath.isEmpty, packagePath != "." {
            words += ["--package-path", shellWord(packagePath)]
        }
        if configuration == "release" { words += ["-c", "release"] }
        words.append(shellWord(name))
        return words.joined(separator: " ")
    }

    /// `x86_64-unknown-linux-gnu`, `arm64-apple-macosx`: three or more dash-separated parts.
    static func isTriple(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count >= 3 && parts.allSatisfy { !$0.isEmpty }
    }

    /// The word as a POSIX shell reads it back: unchanged when it holds only safe characters,
    /// else single-quoted.
    public static func shellWord(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { scalar in
            (scalar.value < 128 && (scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar))))
                || "-_./:=+,@%".unicodeScalars.contains(scalar)
        }
        if safe && !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
