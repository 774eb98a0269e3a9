import CFiles
import Foundation
import HaulNet
import HaulText

// MARK: - FileNaming

/// Chooses the file a download is saved as: the name from the user, else the response
/// (Content-Disposition, then the URL path), else `index.html`; sanitized so it stays inside the
/// target directory and shows nothing a terminal would act on; made unique unless overwriting
/// is allowed.
public enum FileNaming {
    /// Longest name in UTF-8 bytes, leaving room for `.part` and a collision number under the
    /// 255-byte limit of common file systems.
    public static let maximumNameBytes = 240
    public static let fallbackName = "index.html"
    public static let partialSuffix = ".part"

    /// The partial file of a download saved as `destination`: `destination.part`.
    ///
    /// - Parameter destination: The download's final path.
    /// - Returns: The path it is written to until it is whole.
    public static func partialPath(of destination: String) -> String {
        destination + partialSuffix
    }

    /// The name a server's response suggests, sanitized; `fallbackName` when none is usable.
    ///
    /// - Parameter response: The final response; its `Content-Disposition` or URL suggests a name.
    /// - Returns: One plain file name, never empty.
    public static func name(for response: Response) -> String {
        response.suggestedFilename.flatMap(NameGate.serverName) ?? fallbackName
    }

    /// `name` made safe as a single path component, or nil when nothing usable is left.
    /// Removes escape sequences, control characters and separators; refuses `.` and `..`;
    /// cuts to `maximumNameBytes` keeping the extension.
    ///
    /// - Parameter name: A name from anywhere (a server, a URL, a queue file).
    /// - Returns: The safe name, or nil when nothing usable is left.
    public static func sanitize(_ name: String) -> String? {
        // Most names are plain: printable ASCII, no separator, no leading dot, short enough.
        if !name.isEmpty, name.utf8.count <= maximumNameBytes, name.utf8.first != UInt8(ascii: "."),
            name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "\\") })
        {
            return name
        }
        var cleaned = TextSanitizer.stripped(name)
        cleaned = String(cleaned.map { $0 == "/" || $0 == "\\" ? "_" : $0 })
        cleaned = cleaned.trimmingCharacters(in: .whitespaces)
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        guard !cleaned.isEmpty else { return nil }
        return truncated(cleaned)
    }

    /// The path of the first of `name`, `name.1.ext`, `name.2.ext`… in `directory` that neither
    /// exists nor has a partial file, unless `allowOverwrite` (then `name` itself).
    static func uniqueDestination(for name: String, in directory: String, allowOverwrite: Bool) -> String {
        StateLockMarker.assertNotHeld("looking for a free file name")
        if allowOverwrite { return path(for: name, in: directory) }
        return candidates(for: name, in: directory).first { !isTaken($0) } ?? path(for: name, in: directory)
    }

    /// `name`, then `name.1.ext`, `name.2.ext`… in `directory`: the names a file may get, in
    /// the order it tries them.
    static func candidates(for name: String, in directory: String) -> some Sequence<String> {
        // The name is split only when it is taken: most files get the first.
        sequence(state: 0) { number -> String? in
            defer { number += 1 }
            guard number > 0 else { return path(for: name, in: directory) }
            let (stem, ext) = split(name)
            return path(for: "\(stem).\(number)\(ext)", in: directory)
        }
    }

    /// `name` inside `directory`.
    ///
    /// - Parameters:
    ///   - name: A file name.
    ///   - directory: The folder; a trailing `/` is not doubled.
    /// - Returns: The joined path.
    public static func path(for name: String, in directory: String) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + name
    }

    /// `path` split at its last `/` (trailing ones aside): its folder ("/" at the root, "" for a
    /// bare name) and its last component, as `NSString`'s path methods give them (a doubled `/`
    /// inside is kept: it names the same folder), without their cost on every saved file.
    ///
    /// - Parameter path: Any path.
    /// - Returns: The folder and the last component.
    public static func folderAndName(of path: String) -> (folder: String, name: String) {
        path.withUTF8Bytes { bytes in
            func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
            var end = bytes.count
            while end > 1, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
            guard let slash = bytes[..<end].lastIndex(of: UInt8(ascii: "/")) else { return ("", text(0..<end)) }
            var folderEnd = slash
            while folderEnd > 1, bytes[folderEnd - 1] == UInt8(ascii: "/") { folderEnd -= 1 }
            return (folderEnd == 0 ? "/" : text(0..<folderEnd), text((slash + 1)..<end))
        }
    }

    /// The path a download of `url` is saved as before any response names it, as aria2 and wget
    /// see it: `out`, else the URL's last path segment, in `directory`.
    static func expectedPath(out: String?, url: URL, directory: String) -> String? {
        expectedName(out: out, url: url).map { path(for: $0, in: directory) }
    }

    /// The name of `expectedPath`: `out`, else the URL's last path segment, sanitized.
    ///
    /// - Parameters:
    ///   - out: The name the user gave (`out=`, `-o`), or nil.
    ///   - url: The download's URL.
    /// - Returns: The name, or nil when the URL's last segment is not usable either (the response
    ///   will name the file).
    public static func expectedName(out: String?, url: URL) -> String? {
        out ?? NameGate.serverName(url.lastPathComponent)
    }

    /// `expectedName` for the URI `uri`; a last path segment with nothing to decode in it is
    /// read off the text, without parsing a URL (a queue of a million pays for each parse).
    ///
    /// - Parameters:
    ///   - out: The name the user gave (`out=`, `-o`), or nil.
    ///   - uri: The download's URI as written.
    /// - Returns: The name, or nil when the URI names none that is usable.
    public static func expectedName(out: String?, uri: String) -> String? {
        if let out { return out }
        if let segment = URIText.plainLastSegment(of: uri) { return NameGate.serverName(segment) }
        return URL(string: uri).flatMap { expectedName(out: nil, url: $0) }
    }

    /// Whether `path` is taken: by a file, by its partial file, or by the partial file of a
    /// download named `path.part` (which becomes `path.part` when it is renamed), so a
    /// download's name and its `.part` are reserved together.
    static func isTaken(_ path: String) -> Bool {
        exists(path) || exists(path + partialSuffix) || exists(path + partialSuffix + partialSuffix)
    }

    /// Gives the complete file at `partial` the name `destination` and returns the path it got.
    /// Unless `replacing`, an existing file is never replaced (`RENAME_NOREPLACE`): when
    /// something took `destination` meanwhile (another download, another program), the file
    /// gets the next free name (`name.1.ext`…) instead.
    static func moveIntoPlace(
        _ partial: String, to destination: String,
        replacing: Bool
    ) throws(OptionError) -> String {
        StateLockMarker.assertNotHeld("renaming a file")
        if replacing {
            guard rename(partial, destination) == 0 else { throw renameError(partial, destination) }
            return destination
        }
        let (directory, name) = folderAndName(of: destination)
        var target = destination
        for _ in 0..<100 {
            if haul_rename_noreplace(partial, target) == 0 { return target }
            guard errno == EEXIST else { throw renameError(partial, target) }
            target = uniqueDestination(for: name, in: directory, allowOverwrite: false)
        }
        throw OptionError("cannot rename \(partial): every name like \(destination) is taken")
    }

    /// Names the complete unnamed file open as `descriptor` (see `UnnamedFile`) `name` in
    /// `directory`, or the first of `name.1.ext`, `name.2.ext`… that is free, and returns the
    /// path. A name already holding this download's file (`gid`: an earlier run named it and
    /// was killed before its store knew) is that file: it is returned, and the new copy is let go.
    /// A name `hasPartName` says has a `NAME.part` beside it (another download's partial file,
    /// or a file of that name; see `PartFileNames`) is skipped.
    static func link(
        descriptor: Int32, as name: String, in directory: String, gid: GID, skipping hasPartName: (String) -> Bool
    ) throws(OptionError) -> String {
        for candidate in candidates(for: name, in: directory).prefix(1000) {
            if hasPartName(candidate) { continue }
            if haul_link_descriptor(descriptor, candidate) == 0 { return candidate }
            guard errno == EEXIST else {
                throw OptionError("cannot name \(candidate): \(String(cString: strerror(errno)))")
            }
            if SavedFileMark.gid(of: candidate) == gid { return candidate }
        }
        throw OptionError("cannot name a file in \(directory): every name like \(name) is taken")
    }

    private static func renameError(_ from: String, _ to: String) -> OptionError {
        OptionError("cannot rename \(from) to \(to): \(String(cString: strerror(errno)))")
    }

    // MARK: - Pieces

    private static let compoundExtensions = [".tar.gz", ".tar.bz2", ".tar.xz", ".tar.zst", ".tar.lz"]

    /// Splits `name` into stem and extension (with its dot); compound ones such as `.tar.gz`
    /// stay whole.
    static func split(_ name: String) -> (stem: String, ext: String) {
        let lower = name.lowercased()
        if let compound = compoundExtensions.first(where: { lower.hasSuffix($0) && lower.count > $0.count }) {
            return (String(name.dropLast(compound.count)), String(name.suffix(compound.count)))
        }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex,
            name.distance(from: dot, to: name.endIndex) <= 16
        else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }

    private static func truncated(_ name: String) -> String {
        guard name.utf8.count > maximumNameBytes else { return name }
        let (stem, ext) = split(name)
        let keptExt = ext.utf8.count < maximumNameBytes / 2 ? ext : ""
        var result = ""
        for character in stem {
            if result.utf8.count + character.utf8.count + keptExt.utf8.count > maximumNameBytes { break }
            result.append(character)
        }
        return result + keptExt
    }

    /// Whether anything, a dangling symbolic link included, is at `path`.
    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}
