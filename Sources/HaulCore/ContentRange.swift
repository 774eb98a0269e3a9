import Foundation

// MARK: - ContentRange

/// A `Content-Range: bytes FIRST-LAST/TOTAL` header (TOTAL may be `*`).
public struct ContentRange: Sendable, Equatable {
    public let first: Int64
    public let last: Int64
    /// The whole resource's length, or nil when the server sent `*`.
    public let total: Int64?

    public init?(_ header: String) {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes ") else { return nil }
        let parts = text.dropFirst(6).split(separator: "/", maxSplits: 1)
        let bounds = parts.first?.split(separator: "-", maxSplits: 1) ?? []
        guard parts.count == 2, bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]),
            first <= last
        else { return nil }
        self.first = first
        self.last = last
        total = parts[1] == "*" ? nil : Int64(parts[1])
        if let total, total <= last { return nil }
    }

    /// The length in a 416's `Content-Range: bytes */LENGTH`, or nil when the header is not one.
    static func unsatisfiedLength(_ header: String) -> Int64? {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes */"), let length = Int64(text.dropFirst(8)), length >= 0 else {
            return nil
        }
        return length
    }
}
