/// Why an output file (a report, a trace, JUnit XML) cannot be written, and how to fix it.
///
/// The command-line tool prints `description` and exits with status 73 (EX_CANTCREAT).
///
/// ```swift
/// do {
///     try AtomicFile.checkWritable("Reports/nightly/report.json")
/// } catch {
///     print(error)
///     // Reports/nightly/report.json: cannot write: the directory 'Reports/nightly' does not exist
///     // (No such file or directory). Create it (mkdir -p 'Reports/nightly') or choose another path.
/// }
/// ```
///
/// Contract:
/// - `description` is one line: `PATH: cannot write: REASON (SYSTEM MESSAGE). FIX`; the system
///   message is the C library's text for `errno`, when there is one.
/// - ``Reason`` is a closed enum: callers may switch over it.
package struct OutputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure, each with its own fix.
    package enum Reason: Sendable, Hashable {
        /// The path is empty.
        case emptyPath
        /// The path names a directory (or ends with `/`).
        case isDirectory
        /// The path names something that is not a regular file (a device, a socket, a FIFO).
        case notRegularFile
        /// The path names a file where a folder is needed (``AtomicFile/checkFolderWritable(_:)``).
        case notAFolder
        /// The containing directory does not exist.
        case directoryMissing(directory: String)
        /// A component of the containing directory's path is not a directory.
        case parentNotDirectory(directory: String)
        /// The process may not create files in the containing directory.
        case permissionDenied(directory: String)
        /// The file system is mounted read-only.
        case readOnlyFileSystem
        /// The device or quota is full.
        case noSpace
        /// The file size limit (`ulimit -f`, `RLIMIT_FSIZE`) stopped the write.
        case fileSizeLimit
        /// A file name (one component, `whole == false`) or the whole path is `bytes` long in
        /// UTF-8, over the file system's `limit`.
        case nameTooLong(bytes: Int, limit: Int, whole: Bool)
        /// Another system error during `operation` (`open`, `write`, `fsync`, `rename`, …).
        case system(operation: String, errno: Int32)
    }

    /// The output path as the user gave it.
    package let path: String
    /// What went wrong.
    package let reason: Reason
    /// The C library's message for the error number, if there was one (`Permission denied`).
    package let systemMessage: String?

    /// Creates an error.
    ///
    /// ```swift
    /// let error = OutputError(path: "out.json", reason: .isDirectory, systemMessage: nil)
    /// ```
    package init(path: String, reason: Reason, systemMessage: String?) {
        self.path = path
        self.reason = reason
        self.systemMessage = systemMessage
    }

    /// What is wrong, as a phrase: `the directory 'Reports' does not exist`.
    ///
    /// ```swift
    /// OutputError(path: "Reports", reason: .isDirectory, systemMessage: nil).problem
    /// // "it is a directory"
    /// ```
    package var problem: String {
        switch reason {
        case .emptyPath: return "the path is empty"
        case .isDirectory: return "it is a directory"
        case .notRegularFile: return "it exists and is not a regular file"
        case .notAFolder: return "it is a file, not a folder"
        case .directoryMissing(let directory): return "the directory '\(directory)' does not exist"
        case .parentNotDirectory(let directory): return "'\(directory)' is not a directory"
        case .permissionDenied(let directory): return "no permission to create files in '\(directory)'"
        case .readOnlyFileSystem: return "the file system is read-only"
        case .noSpace: return "no space left on the device"
        case .fileSizeLimit: return "the file size limit (ulimit -f) stopped writing it"
        case .nameTooLong(let bytes, let limit, let whole):
            return "\(whole ? "the path" : "a file or folder name in it") is \(bytes) bytes long, over the limit of "
                + "\(limit) bytes"
        case .system(let operation, let code): return "\(operation) failed with error \(code)"
        }
    }

    /// How to fix it, as one sentence.
    ///
    /// ```swift
    /// OutputError(path: "Reports", reason: .isDirectory, systemMessage: nil).fix
    /// // "Give a file name inside it, such as 'Reports/report.json'."
    /// ```
    package var fix: String {
        switch reason {
        case .emptyPath:
            return "Give a file name, such as 'report.json'."
        case .isDirectory:
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            return "Give a file name inside it, such as '\(base)/report.json'."
        case .notRegularFile:
            return "Choose a path that is a regular file or does not exist yet."
        case .notAFolder:
            return "Give a folder, or a path where one can be created."
        case .directoryMissing(let directory):
            return "Create it (mkdir -p '\(directory)') or choose another path."
        case .parentNotDirectory:
            return "Choose a path whose parent is a directory."
        case .permissionDenied:
            return "Choose a writable location or change the directory's permissions."
        case .readOnlyFileSystem:
            return "Choose a path on a writable file system."
        case .noSpace:
            return "Free some space or choose another location."
        case .fileSizeLimit:
            return "Raise the limit (ulimit -f unlimited) and run again."
        case .nameTooLong(_, _, let whole):
            return whole ? "Choose a shorter path." : "Choose a shorter name (a scenario's report is named after the scenario)."
        case .system:
            return "Check the path and the file system, then try again."
        }
    }

    /// The whole error on one line (see the contract above).
    ///
    /// ```swift
    /// print(error)   // Reports: cannot write: it is a directory. Give a file name inside it, …
    /// ```
    package var description: String {
        let detail = systemMessage.map { " (\($0))" } ?? ""
        return "\(path): cannot write: \(problem)\(detail). \(fix)"
    }
}
