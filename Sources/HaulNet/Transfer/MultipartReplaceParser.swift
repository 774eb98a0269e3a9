import Foundation

// MARK: - MultipartReplaceParser

/// Splits a `multipart/x-mixed-replace` body (a webcam's stream of pictures, a server's
/// stream of states) into its parts as the bytes arrive: each part is its header block, then
/// its data, up to the next `CRLF--boundary`. A body that ends without the closing
/// `--boundary--` ends its last part there.
package struct MultipartReplaceParser {
    package enum Event: Equatable {
        /// A new part begins, with its own headers.
        case part(HTTPHeaders)
        /// The next bytes of the current part.
        case data([UInt8])
        /// The stream breaks the format (a header block or delimiter line past its limit); it
        /// cannot go on.
        case malformed(String)
    }

    /// The longest header block of a part, and the longest delimiter line (transport padding
    /// included): a stream that goes on past them without ending the block is malformed, so
    /// memory stays bounded.
    static let headerLimit = 64 * 1024
    static let delimiterLineLimit = 1024

    private enum Stage {
        /// Before the first delimiter (a preamble is ignored).
        case preamble
        /// At a delimiter line: `--boundary`, then CRLF or the closing `--`.
        case delimiter
        case headers
        case body
        case done
    }

    private let delimiter: [UInt8]
    private var buffer: [UInt8] = []
    private var stage = Stage.preamble
    private var ended = false
    /// Where the search for the end of a header block or delimiter line goes on from: the
    /// bytes before it were searched already, so each byte is searched once, not on every read.
    private var searchedTo = 0

    /// A parser for a response of type `multipart/x-mixed-replace` with a boundary, else nil.
    package init?(contentType: String?) {
        // Most replies are not multipart: told apart by their first bytes, without splitting.
        guard let contentType,
            contentType.utf8.first(where: { $0 != 0x20 && $0 != 0x09 }).map({ $0 | 0x20 == UInt8(ascii: "m") })
                == true
        else { return nil }
        let parameters = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parameters.first?.lowercased() == "multipart/x-mixed-replace",
            let boundary = parameters.dropFirst().first(where: { $0.lowercased().hasPrefix("boundary=") })?.dropFirst(
                9),
            !boundary.isEmpty
        else { return nil }
        let unquoted =
            boundary.hasPrefix("\"") && boundary.hasSuffix("\"") && boundary.count > 1
            ? boundary.dropFirst().dropLast() : Substring(boundary)
        // RFC 2046: a boundary is at most 70 characters.
        guard unquoted.utf8.count <= 70, !unquoted.isEmpty else { return nil }
        delimiter = Array("--\(unquoted)".utf8)
    }

    /// Adds body bytes.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    /// Puts back data `next` returned that could not be handed on; it comes again next.
    mutating func unread(_ bytes: [UInt8]) {
        buffer.insert(contentsOf: bytes, at: 0)
    }

    /// The body has ended: what is left of the current part is its data.
    package mutating func end() {
        ended = true
    }

    /// The next event the bytes so far allow, or nil until more arrive.
    package mutating func next() -> Event? {
        while true {
            switch stage {
            case .done:
                buffer.removeAll()
                return nil
            case .preamble:
                if buffer.starts(with: delimiter) {
                    stage = .delimiter
                } else if let at = find(Array("\r\n".utf8) + delimiter) {
                    buffer.removeFirst(at + 2)
                    stage = .delimiter
                } else {
                    // Keep what could be the start of a delimiter.
                    buffer.removeFirst(max(0, buffer.count - delimiter.count - 2))
                    return nil
                }
            case .delimiter:
                guard buffer.count >= delimiter.count + 2 else { return finishIfEnded() }
                if buffer[delimiter.count] == UInt8(ascii: "-"), buffer[delimiter.count + 1] == UInt8(ascii: "-") {
                    stage = .done
                    continue
                }
                // The rest of the delimiter line (transport padding) ends at its CRLF.
                guard let lineEnd = find(Array("\r\n".utf8), from: max(delimiter.count, searchedTo)) else {
                    return waitForEnd(
                        of: "a delimiter line", limit: MultipartReplaceParser.delimiterLineLimit,
                        patternLength: 2)
                }
                buffer.removeFirst(lineEnd + 2)
                searchedTo = 0
                stage = .headers
            case .headers:
                if buffer.starts(with: Array("\r\n".utf8)) {
                    buffer.removeFirst(2)
                    stage = .body
                    return .part(HTTPHeaders())
                }
                guard let end = find(Array("\r\n\r\n".utf8), from: searchedTo) else {
                    return waitForEnd(
                        of: "a part's header block", limit: MultipartReplaceParser.headerLimit,
                        patternLength: 4)
                }
                searchedTo = 0
                var head = ResponseHead()
                for line in String(decoding: buffer[0..<end], as: UTF8.self).split(separator: "\r\n") {
                    head.add(headerLine: line)
                }
                buffer.removeFirst(end + 4)
                stage = .body
                return .part(head.headers)
            case .body:
                if let at = find(Array("\r\n".utf8) + delimiter) {
                    let data = Array(buffer[0..<at])
                    buffer.removeFirst(at + 2)
                    stage = .delimiter
                    if !data.isEmpty { return .data(data) }
                    continue
                }
                // All but what could be the start of the next delimiter is data (all of it at the end).
                let keep = ended ? 0 : min(buffer.count, delimiter.count + 1)
                guard buffer.count > keep else { return finishIfEnded() }
                let data = Array(buffer[0..<(buffer.count - keep)])
                buffer.removeFirst(data.count)
                return .data(data)
            }
        }
    }

    // MARK: - Pieces

    /// At the end of the body nothing more comes: a partial delimiter or header block is dropped.
    private mutating func finishIfEnded() -> Event? {
        if ended { stage = .done }
        return nil
    }

    /// No end of a header block or delimiter line yet: the search goes on from here next time,
    /// unless the block is already past `limit` (then the stream is malformed).
    private mutating func waitForEnd(of what: String, limit: Int, patternLength: Int) -> Event? {
        guard buffer.count <= limit else {
            stage = .done
            return .malformed("\(what) of the multipart/x-mixed-replace reply is over \(limit) bytes")
        }
        searchedTo = max(0, buffer.count - patternLength + 1)
        return finishIfEnded()
    }

    /// The offset of `pattern` in the buffer from `start`, if it is there.
    private func find(_ pattern: [UInt8], from start: Int = 0) -> Int? {
        guard buffer.count >= pattern.count + start, let first = pattern.first else { return nil }
        var index = start
        let last = buffer.count - pattern.count
        while index <= last {
            if buffer[index] == first, buffer[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }
}
