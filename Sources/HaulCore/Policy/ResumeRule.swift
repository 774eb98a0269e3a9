import HaulNet

// MARK: - ResumeRule

/// What to do with a response to a (possibly ranged) request, so that a file is never spliced
/// from two versions of the resource.
enum ResumeRule: Equatable {
    /// An error status, or an answer that does not fit the request: the attempt failed.
    case fail(reason: String?)
    /// Drop the partial data and ask again for the whole file. Only ever the answer to a ranged
    /// request, so the next request (without a range) cannot be told to start over again.
    case startOver
    /// Write the body from file offset `offset`; the whole file is `total` bytes (-1 unknown).
    case write(offset: Int64, total: Int64)
    /// The partial data is the whole file, `total` bytes: a request for what follows its end
    /// was refused (416) by a server whose file is exactly that long.
    case whole(total: Int64)

    /// `rangeFrom`: the first byte the request asked for with `Range` (nil: no range, the
    /// whole file); `total`: the whole file's length the partial data belongs to, when known.
    static func judge(
        _ response: Response, rangeFrom: Int64?, validator: String?, total expected: Int64? = nil
    ) -> ResumeRule {
        let status = response.statusCode
        if status == 416, let rangeFrom, rangeFrom > 0 {
            let length = response.headers["Content-Range"].flatMap(ContentRange.unsatisfiedLength)
            let sameFile = expected == nil || expected == length
            return length == rangeFrom && sameFile ? .whole(total: rangeFrom) : .startOver
        }
        guard response.isSuccess else { return .fail(reason: nil) }
        guard status == 206 else {
            // A 200 is the whole file: the server ignored the range, or the If-Range validator no
            // longer matched. Either way the body replaces the partial data from byte 0.
            return .write(offset: 0, total: response.expectedContentLength)
        }
        let range = response.headers["Content-Range"].flatMap(ContentRange.init)
        guard let rangeFrom else {
            // A 206 nobody asked for: the whole file is as good as a 200; a part of it is not
            // the file, and asking again would get the same answer.
            if let range, let total = range.total, range.first == 0, range.last == total - 1 {
                return .write(offset: 0, total: total)
            }
            return .fail(reason: "the server sent part of the file (206) to a request for all of it")
        }
        guard let range, range.first == rangeFrom else { return .startOver }
        let current = response.validator
        if let validator, let current, current != validator { return .startOver }
        if let expected, range.total != expected {
            // Another length is another file; an unknown one (`bytes k-l/*`) is the same file only
            // when the validator it came with says so: the length is all a server without one gives.
            guard range.total == nil, let validator, current == validator else { return .startOver }
        }
        return .write(offset: rangeFrom, total: range.total ?? -1)
    }
}
