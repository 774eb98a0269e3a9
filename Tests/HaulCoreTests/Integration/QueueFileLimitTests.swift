import Foundation
import HaulNet
import HaulTestSupport
import Testing

@testable import HaulCore

/// A queue file cannot fill the memory: its text (after gzip) is read a piece at a time up to a
/// limit, a list by URL is not kept past it, and option lines cost no copy each.
@Suite("Queue-file limits")
struct QueueFileLimitTests {
    @Test("text past the limit is an error naming the file and the limit, the same fed whole or in pieces")
    func textLimit() throws {
        let text = Array(String(repeating: "http://h.test/file\n", count: 100).utf8)
        #expect(try InputFile.read(text, name: "q.txt", origin: .queueFile, limit: 1900).entries.count == 100)
        let error = #expect(throws: InputFile.FileError.self) {
            try InputFile.read(text, name: "q.txt", origin: .queueFile, limit: 1000)
        }
        #expect(error?.description.contains("q.txt") == true && error?.description.contains("longer than") == true)

        var reader = InputFileReader(name: "pieces", origin: .queueFile, limit: 1 << 20)
        for start in stride(from: 0, to: text.count, by: 7) {
            try reader.feed(contentsOf: Array(text[start..<min(start + 7, text.count)]))
        }
        let pieces = try reader.finish()
        #expect(pieces.entries.count == 100 && pieces.entries.last?.line == 100)
    }

    @Test("a gzip bomb stops at the limit without being inflated in full")
    func gzipBomb() throws {
        // 64 MiB of newlines compresses to about 64 KiB.
        let compressed = try gzip(Data(repeating: 0x0A, count: 64 << 20))
        #expect(compressed.count < 1 << 20)
        let error = #expect(throws: InputFile.FileError.self) {
            try InputFile.read(compressed, name: "bomb.gz", origin: .remoteList, limit: 1 << 20)
        }
        #expect(error?.description.contains("longer than") == true)
        let small = try gzip(Data("http://h.test/a\n  out=a.bin\nhttp://h.test/b\n".utf8))
        let result = try InputFile.read(small + small, name: "two.gz", origin: .queueFile)
        #expect(
            result.entries.map(\.uris) == [
                ["http://h.test/a"], ["http://h.test/b"], ["http://h.test/a"], ["http://h.test/b"],
            ])
        #expect(throws: InputFile.FileError.self) {
            try InputFile.read(small.prefix(small.count - 4), name: "cut.gz", origin: .queueFile)
        }
    }

    @Test("a list by URL longer than the limit is not kept: the load stops at the limit")
    func remoteLimit() throws {
        let server = try FaultServer.shared()
        let reader = RemoteQueueFile(fetcher: Fetcher(), limit: 1 << 20)
        for path in ["/huge/1000000000", "/chunked/3000000"] {
            let error = #expect(throws: InputFile.FileError.self) { try reader.read(server.url(path)) }
            #expect(
                error?.description.contains("larger than the limit") == true, "\(path): \(String(describing: error))")
        }
    }

    @Test("40,000 header lines in one entry read in linear time")
    func manyOptionLines() throws {
        // Ten times the lines must cost about ten times the time, not a hundred (copying the
        // options at every line was quadratic: 12.6 s in release for 40,000). A ratio, not a
        // time, so a loaded machine cannot fail it.
        let clock = ContinuousClock()
        func read(_ count: Int) throws -> (Duration, Int) {
            var text = "http://h.test/f\n"
            for index in 0..<count { text += "  header=X-N\(index): \(index)\n" }
            let bytes = Array(text.utf8)
            var result: InputFile.ReadResult?
            let elapsed = try clock.measure { result = try InputFile.read(bytes, name: "q.txt", origin: .queueFile) }
            return (elapsed, result?.entries.first?.options.headers.count ?? 0)
        }
        let (small, smallCount) = try read(4_000)
        let (large, largeCount) = try read(40_000)
        #expect(smallCount == 4_000 && largeCount == 40_000)
        #expect(large < small * 30, "4,000 lines: \(small); 40,000: \(large)")
    }

    private func gzip(_ data: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let writer = Thread {
            try? input.fileHandleForWriting.write(contentsOf: data); try? input.fileHandleForWriting.close()
        }
        writer.start()
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return compressed
    }
}
