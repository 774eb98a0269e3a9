// MARK: - ListenPorts

/// aria2's `listen-port`: the TCP ports BitTorrent may listen on, `6881-6999` or one; the first
/// free one is taken. `0` takes any free port.
public struct ListenPorts: OptionValueText {
    public let first: Int
    public let last: Int

    /// aria2's default range.
    public static let builtIn = ListenPorts(first: 6881, last: 6999)

    init(first: Int, last: Int) {
        self.first = first
        self.last = last
    }

    /// Reads `6881-6999`, `6881` or `0`.
    ///
    /// - Parameter text: A port or a range of ports.
    /// - Throws: `OptionError` saying what is not a port.
    public init(parsing text: String) throws(OptionError) {
        let ends = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = ends.first.flatMap({ Int($0) }), let last = ends.count == 2 ? Int(ends[1]) : first,
            (0...65535).contains(first), (first...65535).contains(last), first != 0 || last == 0
        else {
            throw OptionError("'\(text)' is not a port (1-65535, or 0 for any) nor a range of them (6881-6999)")
        }
        self.init(first: first, last: last)
    }

    public var description: String { first == last ? "\(first)" : "\(first)-\(last)" }
}
