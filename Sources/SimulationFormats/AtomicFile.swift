#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Writes output files atomically: readers see the old file or the complete new one, never a
/// truncated one, even if the process is killed mid-write.
///
/// ```swift
/// try AtomicFile.checkWritable("Reports/report.json")      // before a long campaign
/// // … run the campaign …
/// try AtomicFile.write(JSONWriter().bytes(for: report), to: "Reports/report.json")
/// ```
///
/// Contract:
/// - `write` creates `.<name>.tmp-<pid>-<counter>` in the target's directory (exclusive create,
///   so concurrent writers never share a temporary file), writes all bytes, `fsync`s, closes and
///   `rename`s it over the target, then `fsync`s the directory (best effort).
/// - On any failure the temporary file is removed and an existing target is left untouched;
///   that includes the file size limit (`ulimit -f`), once ``reportFileSizeLimitAsError()`` has
///   run (without it the kernel ends the process with `SIGXFSZ` mid-write).
/// - A file name over 255 bytes or a path over `PATH_MAX` is refused by the check and by `write`
///   before anything is created.
/// - An existing target keeps its permission bits; a new one gets `0666` minus the umask.
/// - The target must not be a directory or a non-regular file. A symbolic link at the target is
///   replaced by the new file (the file it pointed to is not changed).
/// - Errors are ``OutputError``s that name the path, the reason and the fix.
///
/// Why not Foundation's `Data.write(to:options: .atomic)`: measured on Linux with Swift 6.3
/// (strace), it does write a temporary file, `fsync` it and `rename` it into place, but it
/// resets an existing report's permission bits (a `0600` file comes back `0644`), does not
/// `fsync` the directory, has no check that fails before a long campaign (exit 73 up front),
/// and throws `CocoaError`s that would need mapping back to errno to give our one-line
/// messages. This shim is those four differences, plus step-by-step failure injection for the
/// tests that prove nothing the user had is lost.
package enum AtomicFile {
    /// The steps of a write, for tests that inject a failure into one of them.
    enum Step: Sendable, Hashable {
        case create, write, sync, rename
    }

    /// Distinguishes temporary files made by this process.
    private static let counter = Atomic<UInt64>(0)

    /// Writes `bytes` to `path` atomically.
    ///
    /// ```swift
    /// try AtomicFile.write(Array("hello\n".utf8), to: "/tmp/greeting.txt")
    /// ```
    ///
    /// - Throws: ``OutputError`` if the file cannot be written; the old file is then unchanged.
    package static func write(_ bytes: some Collection<UInt8>, to path: String) throws(OutputError) {
        try write(Array(bytes), to: path, failing: nil)
    }

    /// Writes the UTF-8 of `text` to `path` atomically.
    ///
    /// ```swift
    /// try AtomicFile.write(xml.finish(), to: "Reports/junit.xml")
    /// ```
    ///
    /// - Throws: ``OutputError`` if the file cannot be written; the old file is then unchanged.
    package static func write(_ text: String, to path: String) throws(OutputError) {
        try write(Array(text.utf8), to: path, failing: nil)
    }

    /// Checks, before any work, that `path` can be written, without creating or changing it.
    ///
    /// It checks that the path is not a directory or a special file, that its directory exists,
    /// and that a file can be created there (by creating and removing a temporary file).
    ///
    /// ```swift
    /// try AtomicFile.checkWritable(options.reportPath)   // fail fast: exit 73 before running
    /// ```
    ///
    /// - Throws: ``OutputError`` describing the first problem found.
    package static func checkWritable(_ path: String) throws(OutputError) {
        try checkTarget(path)
        let temporary = try createTemporary(for: path)
        _ = close(temporary.descriptor)
        _ = unlink(temporary.path)
    }

    /// `write`, with an optional injected failure at `step` (tests only).
    static func write(_ bytes: [UInt8], to path: String, failing step: Step?) throws(OutputError) {
        try checkTarget(path)
        let existingMode = fileMode(path)
        let temporary = try createTemporary(for: path, failing: step == .create)
        var descriptor = temporary.descriptor
        func abandon(_ operation: String, _ code: Int32) -> OutputError {
            if descriptor >= 0 { _ = close(descriptor) }
            _ = unlink(temporary.path)
            return error(for: path, operation: operation, code: code)
        }
        if let existingMode { _ = fchmod(descriptor, existingMode & 0o7777) }
        if step == .write { throw abandon("write", EIO) }
        let writeError = writeAll(bytes, to: descriptor)
        if writeError != 0 { throw abandon("write", writeError) }
        if step == .sync { throw abandon("fsync", EIO) }
        if fsync(descriptor) != 0 { throw abandon("fsync", errno) }
        let closed = close(descriptor)
        descriptor = -1
        if closed != 0 { throw abandon("close", errno) }
        if step == .rename { throw abandon("rename", EIO) }
        if rename(temporary.path, path) != 0 { throw abandon("rename", errno) }
        syncDirectory(directory(of: path))
    }

    /// Rejects empty paths, names too long, directories, special files, and paths whose
    /// directory is missing.
    private static func checkTarget(_ path: String) throws(OutputError) {
        guard !path.isEmpty else {
            throw OutputError(path: path, reason: .emptyPath, systemMessage: nil)
        }
        if path.hasSuffix("/") {
            throw OutputError(path: path, reason: .isDirectory, systemMessage: nil)
        }
        try checkLength(path)
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR: throw OutputError(path: path, reason: .isDirectory, systemMessage: nil)
            case S_IFREG: return
            default: throw OutputError(path: path, reason: .notRegularFile, systemMessage: nil)
            }
        } else if errno != ENOENT {
            throw error(for: path, operation: "stat", code: errno)
        }
        let directory = directory(of: path)
        guard stat(directory, &info) == 0 else {
            let code = errno
            let reason: OutputError.Reason = code == ENOENT
                ? .directoryMissing(directory: directory)
                : code == ENOTDIR ? .parentNotDirectory(directory: directory) : .system(operation: "stat", errno: code)
            throw OutputError(path: path, reason: reason, systemMessage: String(cString: strerror(code)))
        }
        if info.st_mode & S_IFMT != S_IFDIR {
            throw OutputError(path: path, reason: .parentNotDirectory(directory: directory),
                              systemMessage: String(cString: strerror(ENOTDIR)))
        }
    }

    /// The longest file name (one path component) and whole path, in bytes of UTF-8, that
    /// Linux and macOS file systems accept (`NAME_MAX`, `PATH_MAX` less its final NUL).
    package static let nameMaxBytes = 255
    package static let pathMaxBytes = Int(PATH_MAX) - 1

    /// Rejects a component longer than ``nameMaxBytes`` or a path longer than ``pathMaxBytes``:
    /// found before any work, not by the `rename` after it.
    package static func checkLength(_ path: String) throws(OutputError) {
        if path.utf8.count > pathMaxBytes {
            throw OutputError(path: path, reason: .nameTooLong(bytes: path.utf8.count, limit: pathMaxBytes, whole: true),
                              systemMessage: String(cString: strerror(ENAMETOOLONG)))
        }
        for component in path.split(separator: "/") where component.utf8.count > nameMaxBytes {
            throw OutputError(path: path, reason: .nameTooLong(bytes: component.utf8.count, limit: nameMaxBytes, whole: false),
                              systemMessage: String(cString: strerror(ENAMETOOLONG)))
        }
    }

    /// Makes a write past the file size limit (`ulimit -f`, `RLIMIT_FSIZE`) fail with `EFBIG`,
    /// which ``write(_:to:)`` reports as ``OutputError/Reason/fileSizeLimit``, instead of ending
    /// the process with `SIGXFSZ` and leaving its temporary file behind. The executable calls it
    /// once at start-up.
    ///
    /// ```swift
    /// AtomicFile.reportFileSizeLimitAsError()   // first thing in main
    /// ```
    package static func reportFileSizeLimitAsError() {
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Creates a new, empty temporary file next to `path`.
    private static func createTemporary(
        for path: String, failing: Bool = false
    ) throws(OutputError) -> (path: String, descriptor: Int32) {
        let directory = directory(of: path)
        let base = prefix(ofBytes: 100, String(path.split(separator: "/").last ?? "output"))
        if failing { throw error(for: path, operation: "open", code: EACCES) }
        for _ in 0..<100 {
            let serial = counter.add(1, ordering: .relaxed).newValue
            let candidate = "\(directory)/.\(base).tmp-\(getpid())-\(serial)"
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 { return (candidate, descriptor) }
            let code = errno
            if code != EEXIST && code != EINTR { throw error(for: path, operation: "open", code: code) }
        }
        throw error(for: path, operation: "open", code: EEXIST)
    }

    /// The longest prefix of `text` of at most `limit` bytes of UTF-8 that ends between two
    /// Unicode scalars, so the temporary file's name stays under ``nameMaxBytes`` whatever the
    /// target's script.
    static func prefix(ofBytes limit: Int, _ text: String) -> String {
        var bytes = 0
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            bytes += String(scalar).utf8.count
            if bytes > limit { break }
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// Writes every byte, retrying short writes and interruptions; returns 0 or an errno.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
        bytes.withUnsafeBytes { buffer -> Int32 in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return 0
        }
    }

    /// The permission bits of an existing regular file, or `nil`.
    private static func fileMode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode : nil
    }

    /// Makes a completed rename durable (best effort: some file systems refuse).
    private static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }

    /// The directory part of `path`: `.` for a bare name, `/` for a file in the root.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// Maps an errno from `operation` on (a temporary file next to) `path` to an error.
    private static func error(for path: String, operation: String, code: Int32) -> OutputError {
        let directory = directory(of: path)
        let reason: OutputError.Reason
        switch code {
        case EACCES, EPERM: reason = .permissionDenied(directory: directory)
        case EROFS: reason = .readOnlyFileSystem
        case ENOSPC, EDQUOT: reason = .noSpace
        case EFBIG: reason = .fileSizeLimit
        case ENOTDIR: reason = .parentNotDirectory(directory: directory)
        case EISDIR: reason = .isDirectory
        default: reason = .system(operation: operation, errno: code)
        }
        return OutputError(path: path, reason: reason, systemMessage: String(cString: strerror(code)))
    }
}

/// The C `write(2)`, under a name that `AtomicFile.write` does not shadow.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, bytes, count)
    #elseif canImport(Musl)
    return Musl.write(descriptor, bytes, count)
    #else
    return Darwin.write(descriptor, bytes, count)
    #endif
}
