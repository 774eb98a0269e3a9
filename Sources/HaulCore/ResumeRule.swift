import HaulNet

// MARK: - ResumeRule

/// What to do with a response to a (possibly ranged) request, so that a file is never spliced
/// from two versions of the resource.
enum ResumeRule: Equatable {
    /// An error status: the attempt failed.
    case fail
    /// Drop the partial data and ask again for the whole file.
    case startOver
    /// Write the body from file offset `offset`; the whole file is `total` bytes (-1 unknown).
    case write(offset: Int64, total: Int64)

    /// `rangeFrom`: the first byte the request asked for with `Range` (nil: no range, the
    /// whole file; a 206 to that is not trusted).
    static func judge(_ response: Response, rangeFrom: Int64?, validator: String?) -> ResumeRule {
        let resumeOffset = rangeFrom ?? 0
        let status = response.statusCode
        if status == 416, resumeOffset > 0 { return .startOver }
        guard response.isSuccess else { return .fail }
        guard status == 206 else {
            // A 200 is the whole file: the server ignored the range, or the If-Range validator no
            // longer matched. Either way the body replaces the partial data from byte 0.
            return .write(offset: 0, total: response.expectedContentLength)
        }
        guard rangeFrom != nil, let range = response.headers["Content-Range"].flatMap(ContentRange.init),
              range.first == resumeOffset else { return .startOver }
        let current = response.validator
        if let validator, let current, current != validator { return .startOver }
        return .write(offset: resumeOffset, total: range.total ?? -1)
    }
}
