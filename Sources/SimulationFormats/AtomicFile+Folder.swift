#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension AtomicFile {
    /// Checks, before any work, that files can later be written into the folder `path`: it is a
    /// folder this process may write, or it does not exist and its nearest existing ancestor is
    /// one (so `mkdir -p` would succeed). Creates nothing.
    ///
    /// ```swift
    /// try AtomicFile.checkFolderWritable(".bgsim/failures")   // created only when a failure is saved
    /// ```
    ///
    /// - Throws: ``OutputError`` naming `path`: ``OutputError/Reason/notAFolder`` when it is a
    ///   file, ``OutputError/Reason/parentNotDirectory(directory:)`` when an ancestor is,
    ///   permission, read-only and length errors as ``write(_:to:)`` reports them.
    package static func checkFolderWritable(_ path: String) throws(OutputError) {
        guard !path.isEmpty else { throw OutputError(path: path, reason: .emptyPath, systemMessage: nil) }
        try checkLength(path)
        let target = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        var folder = target
        var info = stat()
        while stat(folder, &info) != 0 {
            let code = errno
            guard code == ENOENT || code == ENOTDIR, folder != "/", folder != "." else {
                throw OutputError(path: path, reason: .system(operation: "stat", errno: code),
                                  systemMessage: String(cString: strerror(code)))
            }
            folder = directory(of: folder)
        }
        let isTarget = folder == target
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw OutputError(path: path, reason: isTarget ? .notAFolder : .parentNotDirectory(directory: folder),
                              systemMessage: String(cString: strerror(ENOTDIR)))
        }
        if access(folder, W_OK | X_OK) != 0 {
            let code = errno
            let reason: OutputError.Reason = code == EROFS
                ? .readOnlyFileSystem
                : code == EACCES || code == EPERM ? .permissionDenied(directory: folder) : .system(operation: "access", errno: code)
            throw OutputError(path: path, reason: reason, systemMessage: String(cString: strerror(code)))
        }
    }
}
