import CTorrent

// MARK: - TorrentMetainfo

/// What a torrent's metainfo (a `.torrent` file) says, as libtorrent reads it under its limits on
/// size, nesting, tokens and pieces.
public struct TorrentMetainfo: Sendable, Equatable {
    public var name: String
    public var comment: String
    public var creator: String
    /// Seconds since 1970, 0 when unsaid.
    public var creationDate: Int64
    /// The v1 info hash (40 hex digits), nil for a v2-only torrent.
    public var infoHashV1: String?
    /// The v2 info hash (64 hex digits), nil for a v1-only torrent.
    public var infoHashV2: String?
    public var totalSize: Int64
    public var pieceLength: Int
    public var pieceCount: Int
    public var isPrivate: Bool
    /// The announce list, tier by tier.
    public var trackers: [[String]]
    public var files: [TorrentFile]

    /// The longest metainfo haul reads: libtorrent's own limit on a .torrent it loads (10 MB).
    public static let longest = 10_000_000

    /// The hash a torrent goes by: v1's, else v2's (as aria2's `infoHash`).
    public var infoHash: String { infoHashV1 ?? infoHashV2 ?? "" }

    /// Reads `bytes`, a `.torrent` file's.
    ///
    /// - Parameter bytes: The metainfo, bencoded.
    /// - Throws: `TorrentError.badMetainfo` with libtorrent's reason, or `engineMissing`.
    public init(bytes: [UInt8]) throws(TorrentError) {
        try TorrentEngine.require()
        let reader = Reader()
        var error = [CChar](repeating: 0, count: 256)
        let context = Unmanaged.passUnretained(reader).toOpaque()
        let read = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { text in
                haul_ts_inspect(
                    text.baseAddress, text.count,
                    { context, metainfo in
                        guard let context, let metainfo else { return }
                        Unmanaged<Reader>.fromOpaque(context).takeUnretainedValue().read(metainfo.pointee)
                    },
                    { context, file in
                        guard let context, let file else { return }
                        Unmanaged<Reader>.fromOpaque(context).takeUnretainedValue().files.append(
                            TorrentFile(file.pointee))
                    }, context, &error, error.count)
            }
        }
        guard read, var metainfo = reader.metainfo else { throw .badMetainfo(String(cBuffer: error)) }
        metainfo.files = reader.files
        self = metainfo
    }

    init(name: String) {
        self.name = name
        comment = ""
        creator = ""
        creationDate = 0
        totalSize = 0
        pieceLength = 0
        pieceCount = 0
        isPrivate = false
        trackers = []
        files = []
    }

    /// Collects what `haul_ts_inspect` hands out.
    private final class Reader {
        var metainfo: TorrentMetainfo?
        var files: [TorrentFile] = []

        func read(_ plain: haul_ts_metainfo) {
            var metainfo = TorrentMetainfo(name: String(cText: plain.name))
            metainfo.comment = String(cText: plain.comment)
            metainfo.creator = String(cText: plain.creator)
            metainfo.creationDate = plain.creation_date
            let v1 = String(cText: plain.info_hash_v1)
            let v2 = String(cText: plain.info_hash_v2)
            metainfo.infoHashV1 = v1.isEmpty ? nil : v1
            metainfo.infoHashV2 = v2.isEmpty ? nil : v2
            metainfo.totalSize = plain.total_size
            metainfo.pieceLength = Int(plain.piece_length)
            metainfo.pieceCount = Int(plain.piece_count)
            metainfo.isPrivate = plain.is_private
            var tiers: [[String]] = []
            for index in 0..<Int(max(plain.tracker_count, 0)) {
                guard let url = plain.trackers?[index], let tier = plain.tracker_tiers?[index] else { continue }
                let tierIndex = Int(max(tier, 0))
                if tiers.isEmpty || tierIndex >= tiers.count { tiers.append([]) }
                tiers[tiers.count - 1].append(String(cString: url))
            }
            metainfo.trackers = tiers
            files.reserveCapacity(Int(max(plain.file_count, 0)))
            self.metainfo = metainfo
        }
    }
}
