// MARK: - DownloadOptions.Interner

extension DownloadOptions {
    /// Makes equal options share one box of values: the entries of a long queue file (or the rows
    /// of a store) that repeat the same option lines then cost a pointer each, not ~400 bytes.
    /// It remembers the last few distinct option sets, which covers queue files whose entries
    /// come in runs of the same options.
    ///
    /// **Threading:** a value; use one per reader.
    public struct Interner {
        private static let remembered = 4
        private var recent: [DownloadOptions] = []

        /// An interner that has seen no options yet.
        public init() {}

        /// `options`, or an equal set seen lately (sharing its box).
        mutating func intern(_ options: DownloadOptions) -> DownloadOptions {
            // The same box first: a queue file's lines without options all hold the shared box
            // of none, and comparing every value cost their parse a fifth of its time.
            if recent.contains(where: { $0.sharesValues(with: options) }) { return options }
            let values = options.values
            // A gid names one download, so options with a gid of their own match nothing: the
            // cheap comparison first.
            if let equal = recent.first(where: { $0.values.gid == values.gid && $0.values == values }) { return equal }
            if recent.count == Interner.remembered { recent.removeFirst() }
            recent.append(options)
            return options
        }
    }

    /// Merges options over one set of defaults, remembering the last: the entries of a queue
    /// file come in runs that share one box of options, and each run is merged once and shares
    /// one box again, rather than a box each.
    ///
    /// **Threading:** a value; use one per caller.
    public struct Merger {
        public let defaults: DownloadOptions
        private var last: (own: DownloadOptions, merged: DownloadOptions)?

        /// A merger over `defaults`.
        ///
        /// - Parameter defaults: The options of the run (command line and config over the built-in ones).
        public init(over defaults: DownloadOptions) {
            self.defaults = defaults
        }

        /// `own` merged over the defaults (`merged(over:)`).
        ///
        /// - Parameter own: A download's own options.
        /// - Returns: The options in effect for it, sharing a box with the previous call's when `own` did.
        public mutating func merge(_ own: DownloadOptions) -> DownloadOptions {
            if let last, last.own.sharesValues(with: own) { return last.merged }
            let merged = own.merged(over: defaults)
            last = (own, merged)
            return merged
        }
    }
}
