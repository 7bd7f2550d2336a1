#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one absolute spelling of a path, so two spellings of one file compare equal: `./a.json`,
/// `Scenarios/../a.json` and a symbolic link to the folder all resolve to the same string.
///
/// ```swift
/// ResolvedPath.file("Scenarios/../Scenarios/./token-correct-ios17.json")
/// // "/home/me/BackgroundTaskKit/Scenarios/token-correct-ios17.json"
/// ResolvedPath.entry("Reports/latest.json")   // a link named latest.json stays latest.json
/// ```
///
/// Contract: the result is absolute, without `.`, `..` or repeated `/`. Every component that
/// exists is resolved through symbolic links (`realpath(3)`); the part that does not exist yet is
/// appended as written, `..` removing the component before it. ``entry(_:)`` leaves the last
/// component unresolved: it names the directory entry a rename replaces (``AtomicFile`` replaces
/// a link at its target, not the file the link points to). Never fails: a path that cannot be
/// resolved at all comes back normalized only. On a case-insensitive file system, two spellings
/// that differ in case stay different.
package enum ResolvedPath {
    /// The file `path` names, through symbolic links: what reading it reads.
    package static func file(_ path: String) -> String {
        resolve(path, followingLast: true)
    }

    /// The directory entry `path` names: its folder resolved, its last component as written.
    package static func entry(_ path: String) -> String {
        resolve(path, followingLast: false)
    }

    /// The folder of the entry `path` names (``entry(_:)`` without its last component).
    package static func folder(ofEntry path: String) -> String {
        let resolved = entry(path)
        guard let slash = resolved.lastIndex(of: "/"), slash != resolved.startIndex else { return "/" }
        return String(resolved[..<slash])
    }

    private static func resolve(_ path: String, followingLast: Bool) -> String {
        let absolute = path.hasPrefix("/") ? path : currentDirectory() + "/" + path
        var components = absolute.split(separator: "/").map(String.init)
        var last: String?
        if !followingLast, let final = components.last, final != ".", final != ".." {
            last = components.removeLast()
        }
        var resolved: [String] = []
        var existing = true  // the components so far exist, so `resolved` is a real, link-free path
        for component in components {
            switch component {
            case ".": continue
            case "..": if !resolved.isEmpty { resolved.removeLast() }
            default:
                resolved.append(component)
                guard existing else { continue }
                if let real = realPath("/" + resolved.joined(separator: "/")) {
                    resolved = real.split(separator: "/").map(String.init)
                } else {
                    existing = false
                }
            }
        }
        if let last { resolved.append(last) }
        return "/" + resolved.joined(separator: "/")
    }

    private static func realPath(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    private static func currentDirectory() -> String {
        guard let pointer = getcwd(nil, 0) else { return "." }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
