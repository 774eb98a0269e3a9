import Foundation
import HaulNet
import HaulText

// MARK: - Download

/// One download as the queue knows it and the store keeps it: what to fetch, where it goes,
/// where it stands. A value: events carry copies, and the queue keeps the one that counts. What
/// a running attempt shows (speed, connections, response) is its `DownloadActivity`, beside it.
public struct Download: Sendable, Identifiable, Equatable {
    public enum State: String, Sendable, Equatable {
        case queued, active, paused, complete, failed, cancelled

        /// Ended for good until the user retries it.
        public var isFinal: Bool { self == .complete || self == .failed || self == .cancelled }
    }

    /// aria2's gid.
    public internal(set) var id: GID
    /// Mirrors of one file, as text (see `QueueEntry`).
    public var uris: URIList
    // The state and the attempt count fill the word the URIs leave (their 17 bytes take 24):
    // a download is 80 bytes, not 88 (megabytes for a queue of a million).
    public var state: State = .queued
    private var attemptCount: Int32 = 0
    /// The download's own options (queue-file option lines); the queue's defaults fill the rest.
    public var options: DownloadOptions
    /// The directory the file goes to, fixed when the download is queued (its `dir` option, else
    /// the queue's directory), so a restored download lands where it started.
    public var directory: String?
    /// The byte ranges already written to the partial file.
    public var completed = ByteRanges()
    /// The whole file's length, or -1 while unknown.
    public var totalBytes: Int64 = -1
    /// What attempts left (the file's name, the validator, the last failure), kept apart: none
    /// until something is set, so a queue of a million that never ran does not carry it.
    private var record: [AttemptRecord] = []

    /// How many attempts were made.
    public var attempts: Int {
        get { Int(attemptCount) }
        set { attemptCount = Int32(clamping: newValue) }
    }

    /// The fields of `record`.
    private struct AttemptRecord: Sendable, Equatable {
        var destination: String?
        var lastError: String?
        var errorCode: ErrorCode?
        var failureNote: String?
        var nextAttemptAt: Date?
        var validator: String?
    }

    /// The final path, once the first response has named the file.
    public var destination: String? {
        get { record.first?.destination }
        set { setRecord(newValue) { $0.destination = $1 } }
    }

    public var lastError: String? {
        get { record.first?.lastError }
        set { setRecord(newValue) { $0.lastError = $1 } }
    }

    /// Why the last attempt failed, numbered as aria2 numbers it (nil while none failed).
    public var errorCode: ErrorCode? {
        get { record.first?.errorCode }
        set { setRecord(newValue) { $0.errorCode = $1 } }
    }

    /// The last failure in a word or two for a queue row: `404 Not Found`, `refused`.
    public var failureNote: String? {
        get { record.first?.failureNote }
        set { setRecord(newValue) { $0.failureNote = $1 } }
    }

    /// When a download waiting to be tried again starts its next attempt (not stored).
    public var nextAttemptAt: Date? {
        get { record.first?.nextAttemptAt }
        set { setRecord(newValue) { $0.nextAttemptAt = $1 } }
    }

    /// The ETag (else Last-Modified) the partial data was read under; a resume must match it.
    public var validator: String? {
        get { record.first?.validator }
        set { setRecord(newValue) { $0.validator = $1 } }
    }

    /// An accepted body starts at file offset `offset` of a file of `total` bytes (-1: unknown),
    /// read under `validator`: from byte 0 it replaces the whole file; a resumed one continues
    /// what is there.
    mutating func startsBody(at offset: Int64, of total: Int64, validator: String?) {
        if offset == 0 { completed.removeAll() }
        totalBytes = total
        self.validator = validator
    }

    /// Whether an attempt continues the partial data rather than starting over: data read under
    /// a validator (sent back as If-Range), data the user asked to continue (`-c`, as wget
    /// continues a file another tool left), or data this run began under a response of known
    /// length but no validator. Any other partial data may be of an older version of the file:
    /// it is dropped.
    ///
    /// - Parameters:
    ///   - options: The download's options in effect.
    ///   - startedHere: Whether this process began the partial data.
    /// - Returns: True when a Range request may continue it.
    public func continuesPartialData(options: DownloadOptions, startedHere: Bool) -> Bool {
        validator != nil || options.continueExisting == true || (startedHere && totalBytes > 0)
    }

    /// Records `failure` as the last attempt's: `message` as the error, its code, and a word or
    /// two for a row (with the response's `reason` phrase when it was a status).
    mutating func record(_ failure: RetryPolicy.Failure, _ message: String, reason: String?) {
        lastError = message
        errorCode = ErrorCode(failure)
        failureNote = ErrorCode.note(for: failure, reason: reason)
    }

    /// Whether a later run drops the partial data rather than continuing it: there is some, and
    /// `continuesPartialData` refuses data this process did not begin (no validator, no `-c`).
    /// Never a torrent's: its pieces are checked by their hashes.
    public var losesPartialDataOnRestart: Bool {
        torrentLink == nil && completed.prefixLength > 0 && destination != nil
            && !continuesPartialData(options: options, startedHere: false)
    }

    /// Sets a field of `record` to `value` (`assign` says which), the record made when the first
    /// value arrives and dropped when the last is cleared (so equal downloads compare equal). A
    /// closure, not a key path: a key path is applied by the runtime, and a small file sets
    /// three fields.
    private mutating func setRecord<Value>(_ value: Value?, _ assign: (inout AttemptRecord, Value?) -> Void) {
        if record.isEmpty {
            guard value != nil else { return }
            record.append(AttemptRecord())
        }
        assign(&record[0], value)
        if value == nil, record[0] == AttemptRecord() { record.removeAll() }
    }

    /// A download of `uris`, waiting, with nothing written.
    ///
    /// - Parameters:
    ///   - id: Its gid; a new one unless the queue file or a client chose one.
    ///   - uris: The URIs of the file: the first and its mirrors.
    ///   - options: Its options; the queue's for any not set.
    public init(id: GID = .next(), uris: [String], options: DownloadOptions = DownloadOptions()) {
        self.init(id: id, uris: URIList(uris), options: options)
    }

    /// A download of `uris` (a queue entry's, shared rather than copied).
    ///
    /// - Parameters:
    ///   - id: Its gid; a new one unless the queue file or a client chose one.
    ///   - uris: The URIs of the file: the first and its mirrors.
    ///   - options: Its options; the queue's for any not set.
    public init(id: GID = .next(), uris: URIList, options: DownloadOptions = DownloadOptions()) {
        self.id = id
        self.uris = uris
        self.options = options
    }

    /// Bytes already written to the partial file.
    public var bytesDone: Int64 { completed.count }

    /// Bytes this copy of the download has written beyond `earlier`'s (0 when it has fewer: a
    /// new attempt that starts over): what arrived between the two, for a total speed.
    ///
    /// - Parameter earlier: The same download as it was before.
    /// - Returns: The bytes gained, never negative.
    public func bytesGained(since earlier: Download) -> Int64 {
        let gained = bytesDone.subtractingReportingOverflow(earlier.bytesDone)
        return gained.overflow ? 0 : max(gained.partialValue, 0)
    }

    /// The first URI with any password shown as `***`, for screens and logs.
    public var displayURI: String {
        guard let first = uris.first else { return id.description }
        return Download.displayed(first)
    }

    /// `uri` with any password shown as `***`. A URI without an `@` has none, and is not parsed:
    /// a small file asks this several times.
    ///
    /// - Parameter uri: A URI that may carry a login.
    /// - Returns: The URI fit to show or log.
    public static func displayed(_ uri: String) -> String {
        guard uri.containsUTF8Byte(UInt8(ascii: "@")) else { return uri }
        return URL(string: uri)?.redactedString ?? uri
    }

    /// The file's name once known, else the one `out` gives, else the URI's last part: what a
    /// row or a status line calls the download (not sanitized for a terminal).
    public var shownName: String {
        if let path = destination ?? options.out {
            return path.split(separator: "/").last.map(String.init) ?? path
        }
        if case .magnet(let link)? = torrentLink { return TorrentLink.shownName(of: link) }
        if let uri = uris.first, let name = Download.plainLastPart(of: uri) { return name }
        // The URI without its login, taken apart as text: no URL is parsed for a row's name.
        let uri = uris.first.map(URIText.withoutUserInfo) ?? id.description
        let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
        let last = path.split(separator: "/").last.map(String.init) ?? uri
        return last.removingPercentEncoding ?? last
    }

    /// `shownName`'s last part of `uri` when there is nothing to take out or decode (no `@`, no
    /// `%`): the last non-empty `/`-separated part before any `?`, read as bytes. A filter of a
    /// million rows asks for a million names.
    private static func plainLastPart(of uri: String) -> String? {
        let bytes = uri.utf8
        guard !bytes.contains(where: { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "%") }) else { return nil }
        var end = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == UInt8(ascii: "/") {
            end = bytes.index(before: end)
        }
        guard end > bytes.startIndex else { return nil }
        let start = bytes[..<end].lastIndex(of: UInt8(ascii: "/")).map { bytes.index(after: $0) } ?? bytes.startIndex
        return String(Substring(bytes[start..<end]))
    }

    /// The index in `uris` of the URI the current attempt starts from: attempts take the
    /// mirrors in turn.
    public var attemptURIIndex: Int { uris.isEmpty ? 0 : (max(attempts, 1) - 1) % uris.count }

    /// The partial file beside `destination`.
    public var partialPath: String? { destination.map(FileNaming.partialPath(of:)) }

    /// Whether its file is made readable by this user only (0600, not 0644): an sftp://
    /// download, whose server's mode for the file haul cannot learn (libcurl does not say it),
    /// and whose file may be a key or a secret: a mode is never wider than the server's.
    public var keepsFilePrivate: Bool {
        uris.first.map { ASCIIText.equals($0.utf8.prefix(5), ignoringCase: "sftp:") } ?? false
    }

    /// The mode its files are made with.
    var fileMode: mode_t { keepsFilePrivate ? 0o600 : 0o644 }
}
