// MARK: - BitTorrent's options

extension DownloadOptionTable {
    /// A torrent's options (aria2's names), in writing order after the others.
    static let bitTorrent: [DownloadOption] = [
        .single(
            "seed-ratio", \Values.seedRatio, .decimal(0...1_000_000), builtIn: 1.0, change: .live, topic: .bittorrent,
            aria2: "IGR",
            help: "Seed a whole torrent until it uploaded this many times its size (0.0: whatever the ratio); "
                + "with --seed-time, whichever comes first."),
        .single(
            "seed-time", \Values.seedTime, .decimal(0...1_000_000), change: .live, topic: .bittorrent,
            valueName: "minutes", aria2: "IGR",
            help: "Seed a whole torrent for this many minutes (fractions allowed; 0: not at all)."),
        .single(
            "select-file", \Values.selectFile, .parsed("index"), change: .live, topic: .bittorrent,
            aria2: "IR",
            help: "Download only these files of a torrent, by their index from 1: 1,3,5-7 (all when unset)."),
        .single(
            "bt-tracker", \Values.btTracker, .text, topic: .bittorrent, valueName: "uri,...",
            aria2: "IGR",
            help: "Announce to these trackers too (comma-separated URIs), besides the torrent's own."),
        .single(
            "bt-max-peers", \Values.btMaxPeers, .integer(0...10_000), builtIn: 55, change: .live, topic: .bittorrent,
            aria2: "IGR", help: "Peers one torrent connects to at most (0: no limit)."),
        .single(
            "max-upload-limit", \Values.maxUploadLimit, .speed, builtIn: SpeedLimit.none, change: .live,
            topic: .bittorrent, aria2: "ICGR",
            help: "Cap each torrent's upload, e.g. 100K (bytes per second; 0: no cap)."),
        .single(
            "bt-seed-unverified", \Values.btSeedUnverified, .boolean, builtIn: false, topic: .bittorrent,
            aria2: "IGR",
            help: "Seed the files on disk as whole without checking their pieces first."),
        .single(
            "follow-torrent", \Values.followTorrent, .boolean, builtIn: true, topic: .bittorrent,
            aria2: "IGR",
            help: "Download an answer that is a .torrent (application/x-bittorrent, or saved as .torrent) as the "
                + "torrent it describes (true), or save it as it is (false)."),
    ]
}
