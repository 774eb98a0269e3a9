import CTorrent
import Foundation

// MARK: - TorrentEngine

/// The BitTorrent engine, `libHaulTorrentEngine.so`: libtorrent behind CTorrent's C interface,
/// loaded the first time a torrent is asked for (a run that fetches none never maps libtorrent).
public enum TorrentEngine {
    /// The engine library's file name.
    public static let libraryName = "libHaulTorrentEngine.so"

    /// Where the engine is looked for, in order: `HAUL_TORRENT_ENGINE` (a path), beside the
    /// running program (a build's folder), then `../lib/haul/` from it (an installed haul).
    static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var paths: [String] = []
        if let given = environment["HAUL_TORRENT_ENGINE"], !given.isEmpty { paths.append(given) }
        let program = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        paths.append(program.appendingPathComponent(libraryName).path)
        paths.append(
            program.deletingLastPathComponent().appendingPathComponent("lib/haul").appendingPathComponent(libraryName)
                .path)
        return paths
    }

    /// The result of the one load, made by the first call.
    private static let loaded: Result<Void, TorrentError> = {
        let paths = candidates()
        guard let path = paths.first(where: { FileManager.default.isReadableFile(atPath: $0) }) else {
            return .failure(
                .engineMissing(
                    "\(libraryName) was not found (looked at \(paths.joined(separator: ", "))); it comes with haul "
                        + "(make build, or the .deb)"))
        }
        var error = [CChar](repeating: 0, count: 512)
        guard haul_torrent_load(path, &error, error.count) else {
            let reason = String(cBuffer: error)
            return .failure(
                .engineMissing(
                    "\(path) did not load (\(reason)); it needs libtorrent-rasterbar 2.0 "
                        + "(Debian: apt install libtorrent-rasterbar2.0)"))
        }
        return .success(())
    }()

    /// Loads the engine if no call has yet; throws why it cannot be used.
    ///
    /// **Threading:** any thread; the first call loads (some milliseconds), the others wait for it.
    public static func require() throws(TorrentError) {
        try loaded.get()
    }
}

extension String {
    /// The text of a C buffer up to its first NUL.
    init(cBuffer buffer: [CChar]) {
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The text of a C string, "" for none.
    init(cText text: UnsafePointer<CChar>?) {
        self = text.map { String(cString: $0) } ?? ""
    }
}
