import Foundation

// MARK: - InputFileReader

/// Reads a queue file as its bytes arrive: gzip is inflated on the way and each line is parsed
/// once it is complete, so neither the file nor its inflated text is ever held whole. The text
/// may be at most `limit` bytes (after inflating): a longer one, or an endless one, is an error
/// as soon as it passes the limit.
struct InputFileReader {
    private let name: String
    private let limit: Int64
    private var parser: InputFileParser
    /// The first bytes, until there are two to tell gzip by.
    private var head: [UInt8] = []
    private var inflater: Gzip.Inflater?
    private var knowsFormat = false
    /// The start of a line whose end has not arrived yet.
    private var carry: [UInt8] = []
    private var lineNumber = 0
    private var textLength: Int64 = 0

    init(name: String, origin: OptionSource, limit: Int64) {
        self.name = name
        self.limit = limit
        parser = InputFileParser(name: name, origin: origin)
    }

    /// Takes the next bytes of the file.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(InputFile.FileError) {
        guard knowsFormat else {
            head += bytes
            guard head.count >= 2 else { return }
            knowsFormat = true
            if Gzip.isCompressed(head) {
                do {
                    inflater = try Gzip.Inflater()
                } catch {
                    throw fileError("\(error)")
                }
            }
            let start = head
            head = []
            try feed(contentsOf: start)
            return
        }
        guard let inflater else {
            guard take(bytes[...]) else { throw tooLong() }
            return
        }
        let inflated: Bool
        do {
            inflated = try inflater.inflate(bytes) { take($0) }
        } catch {
            throw fileError("\(error)")
        }
        if !inflated { throw tooLong() }
    }

    /// Takes the next bytes of the file, from any contiguous storage.
    mutating func feed(contentsOf bytes: some ContiguousBytes) throws(InputFile.FileError) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(InputFile.FileError) in try feed(buffer) } }.get()
    }

    /// How many lines were read.
    var lines: Int { lineNumber }

    /// The file has ended: its last line is read, and what the whole file gave returned.
    mutating func finish() throws(InputFile.FileError) -> InputFile.ReadResult {
        if !knowsFormat {
            knowsFormat = true
            guard take(head[...]) else { throw tooLong() }
        }
        if let inflater {
            do {
                try inflater.finish()
            } catch {
                throw fileError("\(error)")
            }
        }
        if !carry.isEmpty { consume(carry[...]) }
        carry = []
        return parser.finish()
    }

    // MARK: - Lines

    /// Takes inflated text: each line it completes is parsed. False when the text passed the limit.
    private mutating func take<Bytes: Collection<UInt8>>(_ text: Bytes) -> Bool where Bytes.Index == Int {
        textLength += Int64(text.count)
        guard textLength <= limit else { return false }
        var start = text.startIndex
        while let newline = text[start...].firstIndex(of: 0x0A) {
            if carry.isEmpty {
                consume(text[start..<newline])
            } else {
                carry += text[start..<newline]
                consume(carry[...])
                carry.removeAll(keepingCapacity: true)
            }
            start = newline + 1
        }
        carry += text[start...]
        return true
    }

    private mutating func consume<Bytes: Collection<UInt8>>(_ line: Bytes) where Bytes.Index == Int {
        lineNumber += 1
        var end = line.endIndex
        if end > line.startIndex, line[end - 1] == 0x0D { end -= 1 }
        parser.consume(line: String(decoding: line[line.startIndex..<end], as: UTF8.self), number: lineNumber)
    }

    private func tooLong() -> InputFile.FileError {
        fileError("its text is longer than \(ByteCount.format(limit)); raise --max-queue-file-size if you trust it")
    }

    private func fileError(_ detail: String) -> InputFile.FileError {
        InputFile.FileError(description: "queue file '\(TextSanitizer.visible(name))': \(detail)")
    }
}
