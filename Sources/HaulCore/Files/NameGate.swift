import Foundation
import HaulNet

// MARK: - NameGate

/// The one gate for the names of files haul makes when someone other than the user chose them.
///
/// - A name a server chose (Content-Disposition, a followed Metalink's `name`, `out=` in a list
///   loaded by URL, the last segment of a URL's path) is one file name in the directory the user
///   chose: no folder, no leading dot, nothing a terminal acts on (`FileNaming.sanitize`). A
///   name that is not one is made one (`music/x` is saved as `music_x`).
/// - A network RPC client's `dir` and `out` may name folders, but only below the directory the
///   daemon saves to (`--rpc-allowed-dir`), kept with the download as `nameRoot`. When the file
///   is opened, not when it is queued, each folder below the root is made or opened in turn
///   without following a symbolic link (`openat` with `O_NOFOLLOW`), every part must be a plain
///   name, and neither the file nor its `.part` may be a link: a link made meanwhile, or one that
///   was there all along, is never written through.
///
/// The user's own names (the command line, a file they named by its path, this user's
/// processes on the local socket) pass as they are.
public enum NameGate {
    /// A name as a server may give it: `name` made one plain file name, or nil when nothing of
    /// it is usable. A name haul reads as state beside a file (`NAME.part`, aria2's `NAME.aria2`)
    /// is not one a server gets: its last dot becomes `_` (`notes.txt.aria2` is saved as
    /// `notes.txt_aria2`), so every side file haul honours was written by aria2, haul or the user.
    static func serverName(_ name: String) -> String? {
        guard let plain = FileNaming.sanitize(name) else { return nil }
        let lowercased = plain.lowercased()
        guard let suffix = reservedSuffixes.first(where: { lowercased.hasSuffix($0) }) else { return plain }
        return String(plain.dropLast(suffix.count)) + "_" + plain.suffix(suffix.count - 1)
    }

    /// The endings of the side files haul reads beside a download's file.
    static let reservedSuffixes = [FileNaming.partialSuffix, Aria2ControlFile.suffix]

    /// Whether `component` is one plain name: what `serverName` leaves unchanged.
    ///
    /// - Parameter component: One path component.
    /// - Returns: True when the gate would keep it as it is.
    public static func isPlainName(_ component: some StringProtocol) -> Bool {
        serverName(String(component)) == String(component)
    }

    /// Why a file named `name` in `folder` (absolute) may not be made for a client whose names
    /// stay below `root`, or nil once every folder from the root down is there and is no link.
    /// Makes the root as `mkdir -p` does (the user named it) and the folders below it one by one.
    static func openFolder(_ folder: String, named name: String?, below root: String) -> String? {
        let standardRoot = lexical(root)
        let standardFolder = lexical(folder)
        let prefix = standardRoot.hasSuffix("/") ? standardRoot : standardRoot + "/"
        guard standardFolder == standardRoot || standardFolder.hasPrefix(prefix) else {
            return "\(standardFolder) is outside \(standardRoot), where this download's names must stay"
        }
        let below = standardFolder == standardRoot ? [] : standardFolder.dropFirst(prefix.count).split(separator: "/")
        if let hidden = (below + (name.map { [Substring($0)] } ?? [])).first(where: { !isPlainName($0) }) {
            return "'\(TextSanitizer.visible(String(hidden)))' is not a plain name (a folder or file a client "
                + "names may not start with a dot or hold control characters)"
        }
        if let failure = PosixFile.makeDirectories(standardRoot) { return "cannot create \(standardRoot): \(failure)" }
        var descriptor = open(standardRoot, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return "cannot open \(standardRoot): \(String(cString: strerror(errno)))" }
        defer { close(descriptor) }
        var reached = standardRoot
        for component in below.map(String.init) {
            reached += "/" + component
            if mkdirat(descriptor, component, 0o777) != 0, errno != EEXIST {
                return "cannot create \(reached): \(String(cString: strerror(errno)))"
            }
            let next = openat(descriptor, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else {
                let error = errno
                return error == ELOOP || error == ENOTDIR
                    ? "\(reached) is a symbolic link or not a folder: a client's names do not pass through links"
                    : "cannot open \(reached): \(String(cString: strerror(error)))"
            }
            close(descriptor)
            descriptor = next
        }
        guard let name else { return nil }
        for candidate in [name, FileNaming.partialPath(of: name)] {
            var status = stat()
            if fstatat(descriptor, candidate, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & S_IFMT == S_IFLNK {
                return "\(reached)/\(candidate) is a symbolic link: a client's file is never written through one"
            }
        }
        return nil
    }

    /// `path` without `.`, `..` or doubled slashes, worked out on the text alone (no link is
    /// followed: that is the walk's to check).
    ///
    /// - Parameter path: An absolute path.
    /// - Returns: The same path, absolute, with `.` and empty components dropped and each `..` taking
    ///   away the component before it (never above the root).
    public static func lexical(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
