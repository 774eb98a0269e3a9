import Foundation
import HaulCore

// MARK: - AllowedDirectory

/// Where a client of the daemon may save files (`--rpc-allowed-dir`): a `dir` it sends must lie
/// inside, after `..` is resolved and symbolic links are followed, and an `out` must be a plain
/// relative name under the same rules as a name a server sends.
package struct AllowedDirectory: Sendable, Equatable {
    /// Absolute, without `.` or `..`.
    package let root: String

    /// `root` taken from `base` when relative.
    package init(_ root: String, base: String = FileManager.default.currentDirectoryPath) {
        self.root = NameGate.lexical(root.hasPrefix("/") ? root : base + "/" + root)
    }

    /// The absolute directory a client's `dir` names (relative to `root`), or why it may not.
    package func directory(_ dir: String) throws(RPCError) -> String {
        let path = NameGate.lexical(dir.hasPrefix("/") ? dir : root + "/" + dir)
        guard contains(path),
            contains(AllowedDirectory.resolvingLinks(path), root: AllowedDirectory.resolvingLinks(root))
        else {
            throw RPCError("dir '\(RPCError.shown(dir))' is outside the directory this daemon saves to (\(root))")
        }
        return path
    }

    /// Why `out` may not name a file, or nothing when it may: relative, every part a name a
    /// server could send unchanged (no `..`, no control character, no leading dot).
    package func check(out: String) throws(RPCError) {
        let parts = out.split(separator: "/", omittingEmptySubsequences: false)
        guard !out.hasPrefix("/"), parts.allSatisfy(NameGate.isPlainName) else {
            throw RPCError("out '\(RPCError.shown(out))' is not a plain relative file name")
        }
    }

    private func contains(_ path: String, root: String? = nil) -> Bool {
        let root = root ?? self.root
        return path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// `path` with the symbolic links of its longest existing part followed (the rest as given).
    static func resolvingLinks(_ path: String) -> String {
        var existing = path
        var rest: [String] = []
        while existing != "/" {
            if let real = realpath(existing, nil) {
                defer { free(real) }
                return ([String(cString: real)] + rest.reversed()).joined(separator: "/")
                    .replacingOccurrences(of: "//", with: "/")
            }
            let (folder, name) = FileNaming.folderAndName(of: existing)
            rest.append(name)
            existing = folder
        }
        return path
    }
}
