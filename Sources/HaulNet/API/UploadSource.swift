import Foundation

// MARK: - UploadSource

/// The request body of the current hop as the read callback consumes it.
final class UploadSource {
    private enum Source {
        case bytes([UInt8], offset: Int)
        case stream(any RequestBodyStream)
    }

    private var source: Source

    /// A fresh source for `body`; nil when its stream provider gives no stream.
    init?(_ body: RequestBody) {
        switch body {
        case .bytes(let bytes):
            source = .bytes(bytes, offset: 0)
        case .stream(_, let open):
            guard let stream = open() else { return nil }
            source = .stream(stream)
        }
    }

    /// Fills `buffer`; 0 at the end of the body.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        switch source {
        case .bytes(let bytes, let offset):
            let count = min(buffer.count, bytes.count - offset)
            guard count > 0 else { return 0 }
            bytes.withUnsafeBytes { all in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<(offset + count)]))
            }
            source = .bytes(bytes, offset: offset + count)
            return count
        case .stream(let stream):
            return try stream.read(into: buffer)
        }
    }
}
