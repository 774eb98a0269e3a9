// MARK: - SpeedLimit

/// A speed in bytes a second as aria2 writes one (`500K`, `2M`), where 0 means none: the one
/// place that rule lives, for `max-download-limit`, `lowest-speed-limit` and the overall limit.
public struct SpeedLimit: Sendable, Hashable, CustomStringConvertible {
    /// The bytes a second as given; 0 for none.
    public let bytesPerSecond: Int64

    /// No limit.
    public static let none = SpeedLimit(bytesPerSecond: 0)

    /// A limit of `bytesPerSecond`; 0 or less is none.
    ///
    /// - Parameter bytesPerSecond: The cap.
    public init(bytesPerSecond: Int64) {
        self.bytesPerSecond = max(0, bytesPerSecond)
    }

    /// A limit of `bytesPerSecond`, none when nil.
    ///
    /// - Parameter bytesPerSecond: The cap, or nil for none.
    public init(_ bytesPerSecond: Int64?) {
        self.init(bytesPerSecond: bytesPerSecond ?? 0)
    }

    /// A speed as aria2 writes it: a size with K or M (binary), 0 for none.
    ///
    /// - Parameter text: Such as `500K`, `2M` or `0`.
    /// - Throws: `OptionError` when the text is not a size.
    public init(parsing text: String) throws(OptionError) {
        do {
            self.init(bytesPerSecond: try ByteCount.parse(text))
        } catch {
            throw OptionError(error.description)
        }
    }

    /// The bytes a second to hold to, nil when there is no limit.
    public var cap: Int64? {
        bytesPerSecond > 0 ? bytesPerSecond : nil
    }

    /// As aria2 writes it back: bytes a second, 0 for none.
    public var description: String {
        String(bytesPerSecond)
    }
}
