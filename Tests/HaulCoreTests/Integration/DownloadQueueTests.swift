import Foundation
import HaulNet
import HaulTestSupport
import Testing

@testable import HaulCore

/// The queue against the fault server: admission, resume, restarts, retries, digests, names.
@Suite("Download queue")
struct DownloadQueueTests {
    private func url(_ path: String) throws -> URL { try FaultServer.shared().url(path) }
    private func key() -> String { UUID().uuidString }

    @Test("downloads complete, named from the URL, never more active than -j")
    func admission() async throws {
        let harness = try QueueHarness(maxConcurrent: 2)
        defer { harness.cleanUp() }
        let ids = try (1...6).map { try harness.add(url("/file/\($0 * 100_000)?key=\(key())")) }
        #expect(await harness.recorder.wait(for: ids))
        #expect(ids.allSatisfy { harness.recorder.latest($0)?.state == .complete })
        #expect(harness.recorder.maximumActive <= 2)
        for index in 1...6 {
            let data = try harness.contents("\(index * 100_000)")
            #expect(data.count == index * 100_000 && TestPattern.matches(data))
        }
        #expect(try harness.files().allSatisfy { !$0.hasSuffix(".part") })
    }

    @Test("a folder the queue made and someone removed is made again for the next download", arguments: ["0", "8M"])
    func folderMadeAgain(resumableAbove: String) async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let folder = harness.directory.appendingPathComponent("sub/deeper")
        let first = try harness.add(url("/file/3000?key=\(key())"), [("dir", folder.path)])
        #expect(await harness.recorder.wait(for: [first]))
        try FileManager.default.removeItem(at: harness.directory.appendingPathComponent("sub"))
        let second = try harness.add(
            url("/file/4000?key=\(key())"), [("dir", folder.path), ("resumable-above", resumableAbove)])
        #expect(await harness.recorder.wait(for: [second]))
        #expect(
            harness.recorder.latest(second)?.state == .complete, "\(harness.recorder.latest(second)?.lastError ?? "")")
        #expect(try Data(contentsOf: folder.appendingPathComponent("4000")).count == 4000)
    }

    @Test("remove with its files deletes the saved file, and only when asked")
    func removeWithFiles() async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let kept = try harness.add(url("/file/1000?key=\(key())"))
        let gone = try harness.add(url("/file/2000?key=\(key())"))
        #expect(await harness.recorder.wait(for: [kept, gone]))
        #expect(harness.queue.remove(kept, deletingFiles: false).isEmpty)
        let deleted = harness.queue.remove(gone, deletingFiles: true)
        #expect(deleted.map { ($0 as NSString).lastPathComponent } == ["2000"])
        #expect(try harness.files() == ["1000"] && harness.queue.ids.isEmpty)
    }

    @Test("a partial file that lost bytes the store counted starts over, never leaving a hole")
    func truncatedPartial() async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let key = key()
        var download = Download(uris: [try url("/file/1000000?key=\(key)").absoluteString])
        download.directory = harness.directory.path
        download.destination = harness.directory.appendingPathComponent("1000000").path
        download.completed = ByteRanges([0..<500_000])
        download.totalBytes = 1_000_000
        download.validator = "\"v1\""
        // What is on disk is shorter than what the store says was written.
        try Data(TestPattern.bytes(count: 1000)).write(to: harness.directory.appendingPathComponent("1000000.part"))
        let ids = harness.queue.restore([download])
        #expect(await harness.recorder.wait(for: ids))
        #expect(harness.recorder.latest(ids[0])?.state == .complete)
        let data = try harness.contents("1000000")
        #expect(data.count == 1_000_000 && TestPattern.matches(data))
        #expect(try FaultServer.shared().fileRequests.requests(for: key).map(\.range) == ["bytes=500000-", nil])
    }

    @Test(
        "a dropped transfer resumes with Range, and If-Range where the server sent a validator, and ends whole",
        arguments: [("", "\"v1\""), ("&validators=none", nil)] as [(String, String?)])
    func resumeAfterDrop(fault: String, ifRange: String?) async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let key = key()
        let id = try harness.add(
            url("/file/3000000?key=\(key)&drop=1600000\(fault)"), [("out", "r.bin"), ("resumable-above", "0")])
        #expect(await harness.recorder.wait(for: [id]))
        #expect(harness.recorder.latest(id)?.state == .complete)
        let requests = try FaultServer.shared().fileRequests.requests(for: key)
        #expect(requests.count == 2)
        #expect(requests.first?.range == nil)
        #expect(requests.last?.range?.hasPrefix("bytes=") == true && requests.last?.range != "bytes=0-")
        #expect(requests.last?.ifRange == ifRange)
        let data = try harness.contents("r.bin")
        #expect(data.count == 3_000_000 && TestPattern.matches(data))
    }

    @Test(
        "a server that changes version, ignores ranges or answers 416 makes haul start over",
        arguments: ["etag=changing", "etag=changing&ifrange=ignore", "ranges=ignore", "ranges=416"])
    func startOver(fault: String) async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let key = key()
        let id = try harness.add(
            url("/file/3000000?key=\(key)&drop=1600000&\(fault)"), [("out", "s.bin"), ("resumable-above", "0")])
        #expect(await harness.recorder.wait(for: [id]))
        #expect(harness.recorder.latest(id)?.state == .complete)
        let data = try harness.contents("s.bin")
        #expect(data.count == 3_000_000 && TestPattern.matches(data))
        let requests = try FaultServer.shared().fileRequests.requests(for: key)
        #expect(requests.count >= 2)
        if fault.contains("ifrange=ignore") || fault.contains("416") {
            #expect(requests.last?.range == nil, "the last request must ask for the whole file")
        }
    }

    @Test("Retry-After in seconds and as an HTTP-date sets the wait; then the download completes")
    func retryAfter() async throws {
        let timer = ManualRetryTimer()
        let harness = try QueueHarness(timer: timer)
        defer { harness.cleanUp() }
        let id = try harness.add(url("/file/1000?key=\(key())&fail=503&times=1&retryAfter=7"))
        #expect(await harness.recorder.wait(for: [id], until: { $0.lastError != nil }))
        #expect(timer.delays == [7])
        #expect(harness.recorder.latest(id)?.lastError?.contains("503") == true)
        timer.fireAll()
        #expect(await harness.recorder.wait(for: [id]))
        #expect(harness.recorder.latest(id)?.state == .complete)

        let now = Date()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: now.addingTimeInterval(120))
        let seconds = try #require(RetryPolicy.parseRetryAfter(date, now: now))
        #expect(abs(seconds - 120) <= 1)
        // Seconds are digits only; what else Double would read is no wait at all (the fuzzer's
        // "Inf" once came back as an endless one).
        for text in ["Inf", "infinity", "1e3", "0x10", "+5", "5.5", "-1", "nan", ""] {
            #expect(RetryPolicy.parseRetryAfter(text, now: now) == nil, "\(text)")
        }
        #expect(RetryPolicy.parseRetryAfter(" 0120 ", now: now) == 120)
        #expect(RetryPolicy.parseRetryAfter(String(repeating: "9", count: 400), now: now)?.isFinite == true)
    }

    @Test("404 is not retried; 500 is, up to max-tries, with growing waits")
    func retryLimits() async throws {
        let timer = ManualRetryTimer()
        let harness = try QueueHarness(timer: timer)
        defer { harness.cleanUp() }
        let missing = try harness.add(url("/status/404"))
        #expect(await harness.recorder.wait(for: [missing]))
        #expect(harness.recorder.latest(missing)?.state == .failed)
        #expect(harness.recorder.latest(missing)?.attempts == 1)
        #expect(timer.delays.isEmpty)

        let broken = try harness.add(url("/file/10?key=\(key())&fail=500&times=99"), [("max-tries", "3")])
        for failures in 1...2 {
            #expect(await harness.recorder.wait(for: [broken], until: { _ in timer.delays.count >= failures }))
            timer.fireAll()
        }
        #expect(await harness.recorder.wait(for: [broken]))
        #expect(harness.recorder.latest(broken)?.state == .failed)
        #expect(harness.recorder.latest(broken)?.attempts == 3)
        let delays = timer.delays
        #expect(delays.count == 2 && delays[1] > delays[0])
    }

    @Test(
        "a digest mismatch fails with both digests and keeps the data in NAME.part, which a retry checks without downloading; a match completes"
    )
    func checksums() async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let body = Data(TestPattern.bytes(count: 50_000))
        let badKey = key()
        let wrong = try harness.add(
            url("/file/50000?key=\(badKey)"),
            [("out", "bad.bin"), ("checksum", "sha256=" + String(repeating: "0", count: 64))])
        #expect(await harness.recorder.wait(for: [wrong]))
        let failed = try #require(harness.recorder.latest(wrong))
        #expect(failed.state == .failed)
        #expect(failed.lastError?.contains("expected sha-256=0000") == true)
        #expect(failed.lastError?.contains("got sha-256=") == true)
        #expect(failed.lastError?.contains("bad.bin.part") == true)
        #expect(try harness.files().filter { $0.hasPrefix("bad.bin") } == ["bad.bin.part"])
        #expect(try harness.contents("bad.bin.part") == body)

        let mark = harness.recorder.eventCount
        harness.queue.retry(wrong)
        #expect(await harness.recorder.wait(after: mark, for: wrong, until: { $0.state == .failed }))
        #expect(harness.recorder.latest(wrong)?.lastError?.contains("checksum mismatch") == true)
        #expect(try FaultServer.shared().fileRequests.requests(for: badKey).count == 1)

        let digest = try Checksum.digest(ofFileAt: writeTemporary(body), algorithm: .sha256)
        let right = try harness.add(
            url("/file/50000?key=\(key())"), [("out", "good.bin"), ("checksum", "sha-256=\(digest)")])
        #expect(await harness.recorder.wait(for: [right]))
        #expect(harness.recorder.latest(right)?.state == .complete)
        #expect(try harness.contents("good.bin") == body)
    }

    @Test(
        "a partial file that already holds the whole body (a kill came while it was checked) is checked and named without a request"
    )
    func wholePartialFile() async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let body = Data(TestPattern.bytes(count: 40_000))
        let digest = try Checksum.digest(ofFileAt: writeTemporary(body), algorithm: .sha256)
        let wholeKey = key()
        var options = DownloadOptions()
        try options.set("checksum", "sha-256=\(digest)")
        var download = Download(
            id: .next(), uris: [try url("/file/40000?key=\(wholeKey)").absoluteString], options: options)
        download.directory = harness.directory.path
        download.destination = harness.directory.appendingPathComponent("whole.bin").path
        download.totalBytes = 40_000
        download.completed = ByteRanges([0..<40_000])
        download.validator = "\"v1\""
        download.state = .active
        try body.write(to: harness.directory.appendingPathComponent("whole.bin.part"))
        harness.queue.restore([download])
        #expect(await harness.recorder.wait(for: [download.id]))
        #expect(harness.recorder.latest(download.id)?.state == .complete)
        #expect(try harness.contents("whole.bin") == body)
        #expect(try FaultServer.shared().fileRequests.requests(for: wholeKey).isEmpty)
    }

    @Test("the same name twice becomes name and name.1")
    func collisions() async throws {
        let harness = try QueueHarness(maxConcurrent: 1)
        defer { harness.cleanUp() }
        let first = try harness.add(url("/file/100?key=\(key())"), [("out", "same.txt")])
        let second = try harness.add(url("/file/200?key=\(key())"), [("out", "same.txt")])
        #expect(await harness.recorder.wait(for: [first, second]))
        #expect(try harness.files() == ["same.1.txt", "same.txt"])
        #expect(try harness.contents("same.1.txt").count == 200)
    }

    @Test("pause keeps the partial data; resume continues from it with a range")
    func pauseAndResume() async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let key = key()
        let id = try harness.add(
            url("/file/4000000?key=\(key)&stall=1500000"), [("out", "p.bin"), ("resumable-above", "0")])
        #expect(await harness.recorder.wait(for: [id], until: { $0.bytesDone > 600_000 }))
        harness.queue.pause(id)
        #expect(await harness.recorder.wait(for: [id], until: { $0.state == .paused }))
        harness.queue.resume(id)
        #expect(await harness.recorder.wait(for: [id]))
        #expect(harness.recorder.latest(id)?.state == .complete)
        let requests = try FaultServer.shared().fileRequests.requests(for: key)
        #expect(requests.count == 2 && requests[1].range != nil)
        let data = try harness.contents("p.bin")
        #expect(data.count == 4_000_000 && TestPattern.matches(data))
    }

    @Test("a transfer slower than lowest-speed-limit for the timeout is cut off and retried")
    func lowestSpeed() async throws {
        let timer = ManualRetryTimer()
        let harness = try QueueHarness(timer: timer)
        defer { harness.cleanUp() }
        let id = try harness.add(
            url("/file/3000000?key=\(key())&trickle=2000"),
            [("out", "slow.bin"), ("lowest-speed-limit", "500K"), ("timeout", "1"), ("max-tries", "2")])
        #expect(await harness.recorder.wait(for: [id], until: { _ in !timer.delays.isEmpty }))
        let retried = try #require(harness.recorder.latest(id))
        #expect(retried.state == .queued)
        #expect(retried.lastError?.contains("did not answer in time") == true)
        timer.fireAll()
        #expect(await harness.recorder.wait(for: [id]))
        #expect(harness.recorder.latest(id)?.state == .complete)
        #expect(try harness.contents("slow.bin").count == 3_000_000)
    }

    @Test("a download's speed cap can be lifted while it runs")
    func liveLimit() async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let id = try harness.add(url("/file/5000000?key=\(key())"), [("out", "l.bin"), ("max-download-limit", "100K")])
        #expect(await harness.recorder.wait(for: [id], until: { $0.bytesDone > 0 || $0.state == .active }))
        harness.queue.setMaxDownloadLimit(id, nil)
        #expect(await harness.recorder.wait(for: [id]))
        #expect(harness.recorder.latest(id)?.state == .complete)
        #expect(harness.recorder.latest(id)?.options.maxDownloadLimit == nil)
        #expect(try harness.contents("l.bin").count == 5_000_000)
    }

    @Test("cancel stops a download; retry continues it to the end")
    func cancelAndRetry() async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let id = try harness.add(
            url("/file/3000000?key=\(key())&stall=1500000"), [("out", "c.bin"), ("resumable-above", "0")])
        #expect(await harness.recorder.wait(for: [id], until: { $0.bytesDone > 600_000 }))
        harness.queue.cancel(id)
        #expect(await harness.recorder.wait(for: [id]))
        #expect(harness.recorder.latest(id)?.state == .cancelled)
        harness.queue.retry(id)
        #expect(await harness.recorder.wait(for: [id], until: { $0.state == .complete }))
        let data = try harness.contents("c.bin")
        #expect(data.count == 3_000_000 && TestPattern.matches(data))
    }

    private func writeTemporary(_ data: Data) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("haul-digest-\(UUID())").path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }
}
