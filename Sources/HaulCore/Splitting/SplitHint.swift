// MARK: - SplitHint

/// Whether a download on one connection would clearly gain from more, and the words to say so
/// (in the detail pane and at the end of `haul get`'s line): haul never opens more connections
/// than asked, but says when a large file crawls down one while the server takes ranges (as a
/// link that caps each connection makes it).
enum SplitHint {
    /// A transfer is judged after this long (seconds), once its speed has settled.
    static let settleTime = 3.0
    /// Only a download with at least this long left (seconds) at its speed is worth the hint.
    static let worthwhile = 20.0
    /// The connections the hint suggests.
    static let suggested = 8

    /// The hint for a download that has run on one connection for `elapsed` seconds at `speed`
    /// bytes a second with `remaining` bytes left, or nil: none unless it runs on one
    /// connection because it was not asked for more (`maxConnections` 1), the server takes
    /// ranges and names a validator, and it would take long.
    /// `takesRanges` is asked last: it reads a response header, and a download is asked on
    /// every write.
    static func text(
        elapsed: Double, speed: Double, remaining: Int64, maxConnections: Int,
        takesRanges: @autoclosure () -> Bool
    ) -> String? {
        guard maxConnections <= 1, elapsed >= settleTime, speed > 0, remaining > 0, takesRanges() else { return nil }
        guard Double(remaining) / speed >= worthwhile else { return nil }
        return words
    }

    /// The words: the speed and the time left are on the download's line already, and stay
    /// current there, so the hint holds neither (one that did was frozen when it was made).
    static let words = "one connection, and the server takes ranges: try -x \(suggested) -s \(suggested)"
}
