/// A problem in an input file (a scenario, a report to merge), as one line a user can act on.
///
/// Every error names the file, the place in it (a JSON path such as `$.campaign.runs`, or a line
/// and column for syntax errors), what is wrong, and how to fix it. The command-line tool prints
/// `description` and exits with status 65 (EX_DATAERR).
///
/// ```swift
/// let error = ConfigError(
///     file: "Scenarios/smoke.json", path: "$.campaign.runs",
///     problem: "expected an integer from 1 to 10000000, found -5",
///     fix: "Set a positive number of runs.")
/// print(error)
/// // Scenarios/smoke.json: $.campaign.runs: expected an integer from 1 to 10000000, found -5. Set a positive number of runs.
/// ```
///
/// Contract:
/// - `description` is one line: `FILE: PATH: PROBLEM. FIX` for errors found by reading values,
///   and `FILE:LINE:COLUMN: PROBLEM. FIX` (the compiler format editors link to) for syntax errors.
/// - `problem` is a phrase without a final period; `fix` is a sentence (may be empty).
/// - Line breaks in the parts are replaced by spaces, so the description is always one line.
/// - Paths start at `$`; `.name` for identifier-like keys, `["odd key"]` otherwise, and `[i]` for
///   array elements, counting from 0.
package struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it, for example `Scenarios/smoke.json`.
    package let file: String
    /// The JSON path of the offending value, or `$` for the whole document and syntax errors.
    package let path: String
    /// The 1-based line, for syntax errors; `nil` otherwise.
    package let line: Int?
    /// The 1-based column (in Unicode scalars), for syntax errors; `nil` otherwise.
    package let column: Int?
    /// What is wrong: `expected an integer from 1 to 10000000, found -5`.
    package let problem: String
    /// How to fix it: `Set a positive number of runs.`
    package let fix: String

    /// Creates an error about the value at `path`.
    ///
    /// ```swift
    /// let error = ConfigError(file: "x.json", path: "$.expect",
    ///                         problem: "unknown invariant \"no-such-thing\"",
    ///                         fix: "Run `bgsim list` to see the invariant ids.")
    /// ```
    package init(file: String, path: String, problem: String, fix: String) {
        self.file = file
        self.path = path
        self.line = nil
        self.column = nil
        self.problem = problem
        self.fix = fix
    }

    /// Creates an error from a syntax error found while parsing `file`.
    ///
    /// ```swift
    /// do { _ = try JSONParser().parse(bytes) }
    /// catch { throw ConfigError(file: "Scenarios/smoke.json", parseError: error) }
    /// // Scenarios/smoke.json:3:14: expected ',' or '}' after an object member, found '"'. Add …
    /// ```
    package init(file: String, parseError: JSONParseError) {
        self.file = file
        self.path = "$"
        self.line = parseError.line
        self.column = parseError.column
        self.problem = parseError.reason
        self.fix = parseError.fix
    }

    /// Where the problem is: `PATH`, or `LINE:COLUMN` for syntax errors.
    ///
    /// ```swift
    /// error.location   // "$.campaign.runs" or "3:14"
    /// ```
    package var location: String {
        if let line, let column { return "\(line):\(column)" }
        return path
    }

    /// The whole error on one line (see the contract above).
    ///
    /// ```swift
    /// print(error)   // Scenarios/smoke.json: $.campaign.runs: expected …, found -5. Set …
    /// ```
    package var description: String {
        let place = line != nil ? "\(file):\(location):" : "\(file): \(path):"
        var text = "\(place) \(Self.oneLine(problem))."
        if !fix.isEmpty { text += " " + Self.oneLine(fix) }
        return text
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
