import Foundation
import HaulNet
import HaulText

// MARK: - ContentRange

/// A `Content-Range: bytes FIRST-LAST/TOTAL` header (TOTAL may be `*`).
public struct ContentRange: Sendable, Equatable {
    public let first: Int64
    public let last: Int64
    /// The whole resource's length, or nil when the server sent `*`.
    public let total: Int64?

    /// The header's range, or nil when it is not `bytes FIRST-LAST/TOTAL` with `FIRST ≤ LAST <
    /// TOTAL` and every number a size haul takes.
    ///
    /// - Parameter header: The `Content-Range` value.
    public init?(_ header: String) {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes ") else { return nil }
        let parts = text.dropFirst(6).split(separator: "/", maxSplits: 1)
        let bounds = parts.first?.split(separator: "-", maxSplits: 1) ?? []
        // Every number is a size haul takes (`FileSize`): a range past 8 PiB is no range.
        guard parts.count == 2, bounds.count == 2, let first = Int64(bounds[0]).flatMap(FileSize.checked),
            let last = Int64(bounds[1]).flatMap(FileSize.checked), first <= last
        else { return nil }
        self.first = first
        self.last = last
        if parts[1] == "*" {
            total = nil
        } else {
            guard let total = Int64(parts[1]).flatMap(FileSize.checked), total > last else { return nil }
            self.total = total
        }
    }

    /// The length in a 416's `Content-Range: bytes */LENGTH`, or nil when the header is not one.
    static func unsatisfiedLength(_ header: String) -> Int64? {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes */"), let length = Int64(text.dropFirst(8)).flatMap(FileSize.checked)
        else {
            return nil
        }
        return length
    }
}
