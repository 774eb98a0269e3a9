// MARK: - DownloadActivity

/// What a download's running attempt shows, beside its `Download` (never stored): its speed,
/// its connections, its last response, the mirrors it gave up on, and a hint.
/// `DownloadEvent.activity` says each change; a download that becomes active starts a new
/// attempt, whose activity starts afresh (`DownloadEvent.stateChanged` to `.active` says so).
public struct DownloadActivity: Sendable, Equatable {
    /// Bytes a second, smoothed.
    public var speed: Double = 0
    /// Connections fetching it now: several when split (0 until a split says how many).
    public var connections = 0
    /// While split, each running connection's segment.
    public var segments: [Segment] = []
    /// The last response of this run.
    public var response: ResponseSummary?
    /// Mirrors this attempt gave up on, each with why.
    public var droppedMirrors: [String] = []
    /// Why more connections would help, when one crawls on a large file (`SplitHint`).
    public var hint: String?
    /// How many connections an automatic split chose, and why (`SplitGrowth.reason`).
    public var splitChoice: String?
    /// Why this attempt writes the file from its first byte over partial data it was asked to
    /// continue (a server that sent the whole file again).
    public var startedOver: String?
    /// A torrent's upload, swarm and seeding (nil for a download of a URL).
    public var torrent: TorrentActivity?

    /// An attempt that has just begun: no speed, connections or response yet.
    public init() {}

    /// One change, as `DownloadEvent.activity` carries it.
    public enum Change: Sendable, Equatable {
        case response(ResponseSummary)
        /// The running connections, and each one's segment when split.
        case connections(Int, segments: [Segment])
        /// A mirror given up on, and why.
        case mirrorDropped(String)
        case hint(String)
        /// An automatic split's choice of connections, and why.
        case splitChoice(String)
        /// The attempt writes from the first byte over partial data it asked to continue, and why.
        case startedOver(String)
        /// A torrent's upload, swarm and seeding, as its last status said.
        case torrent(TorrentActivity)
        /// A torrent has every wanted piece, and seeds from now on (aria2's
        /// `onBtDownloadComplete`): said once an attempt, after the status that says so.
        case seedingStarted
    }

    /// Follows `change`.
    ///
    /// - Parameter change: What the running attempt reported.
    public mutating func apply(_ change: Change) {
        switch change {
        case .response(let response): self.response = response
        case .connections(let count, let segments):
            connections = count
            self.segments = segments
        case .mirrorDropped(let text): droppedMirrors.append(text)
        case .hint(let text): hint = text
        case .splitChoice(let text): splitChoice = text
        case .startedOver(let text): startedOver = text
        case .torrent(let torrent): self.torrent = torrent
        case .seedingStarted: break
        }
    }

    /// One running connection of a split download: its range of the file, what it has written,
    /// the mirror it fetches from (without password) and its speed.
    public struct Segment: Sendable, Equatable {
        public let range: Range<Int64>
        public let written: Int64
        public let mirror: String
        public let speed: Double

        /// A segment as the split reports it.
        ///
        /// - Parameters:
        ///   - range: The part of the file this connection fetches.
        ///   - written: Bytes of `range` written so far.
        ///   - mirror: The URI it fetches from, without a password.
        ///   - speed: Its bytes a second.
        public init(range: Range<Int64>, written: Int64, mirror: String, speed: Double) {
            self.range = range
            self.written = written
            self.mirror = mirror
            self.speed = speed
        }
    }
}
