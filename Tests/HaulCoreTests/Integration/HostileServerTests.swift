import Foundation
import HaulNet
import HaulTestSupport
import Testing

@testable import HaulCore

/// What a hostile or broken server tries against the queue: answers that do not fit the
/// request, names that collide with another download's partial file, bodies that never begin.
@Suite("Hostile servers")
struct HostileServerTests {
    private func response(_ status: Int, _ headers: [String: String] = [:]) -> Response {
        var fields = HTTPHeaders()
        for (name, value) in headers { fields.add(name, value) }
        return Response(url: URL(fileURLWithPath: "/x"), statusCode: status, headers: fields)
    }

    @Test(
        "ResumeRule: what each answer to each request means",
        arguments: [
            // (status, Content-Range, asked from, validator then, ETag now, expected)
            (200, nil, nil, nil, nil, ResumeRule.write(offset: 0, total: -1)),
            (200, nil, 500, "\"a\"", "\"b\"", .write(offset: 0, total: -1)),
            (206, "bytes 0-4999/5000", nil, nil, nil, .write(offset: 0, total: 5000)),
            (
                206, "bytes 0-2499/5000", nil, nil, nil,
                .fail(reason: "the server sent part of the file (206) to a request for all of it")
            ),
            (
                206, "bytes 10-4999/5000", nil, nil, nil,
                .fail(reason: "the server sent part of the file (206) to a request for all of it")
            ),
            (
                206, nil, nil, nil, nil,
                .fail(reason: "the server sent part of the file (206) to a request for all of it")
            ),
            (206, "bytes 500-999/1000", 500, "\"a\"", "\"a\"", .write(offset: 500, total: 1000)),
            (206, "bytes 400-999/1000", 500, "\"a\"", "\"a\"", .startOver),
            (206, "bytes 500-999/1000", 500, "\"a\"", "\"b\"", .startOver),
            (416, nil, 500, "\"a\"", nil, .startOver),
            (416, "bytes */1000", 1000, nil, nil, .whole(total: 1000)),
            (416, "bytes */1000", 500, nil, nil, .startOver),
            (416, nil, nil, nil, nil, .fail(reason: nil)),
            (404, nil, nil, nil, nil, .fail(reason: nil)),
        ] as [(Int, String?, Int64?, String?, String?, ResumeRule)])
    func resumeTable(
        status: Int, contentRange: String?, from: Int64?, validator: String?, etag: String?, expected: ResumeRule
    ) {
        var headers: [String: String] = [:]
        if let contentRange { headers["Content-Range"] = contentRange }
        if let etag { headers["ETag"] = etag }
        #expect(ResumeRule.judge(response(status, headers), rangeFrom: from, validator: validator) == expected)
    }

    @Test("a ranged answer for a file of another length than the partial data's is another file")
    func otherLength() {
        let answer = response(206, ["Content-Range": "bytes 500-1199/1200"])
        #expect(ResumeRule.judge(answer, rangeFrom: 500, validator: nil, total: 1000) == .startOver)
        #expect(
            ResumeRule.judge(answer, rangeFrom: 500, validator: nil, total: 1200) == .write(offset: 500, total: 1200))
        let whole = response(416, ["Content-Range": "bytes */1000"])
        #expect(ResumeRule.judge(whole, rangeFrom: 1000, validator: nil, total: 1200) == .startOver)
    }

    @Test("a ranged answer of unknown length (bytes k-l/*) continues a file only under the validator it came with")
    func unknownLength() {
        let unknown = response(206, ["Content-Range": "bytes 500-899/*"])
        #expect(ResumeRule.judge(unknown, rangeFrom: 500, validator: nil, total: 1000) == .startOver)
        let tagged = response(206, ["Content-Range": "bytes 500-899/*", "ETag": "\"a\""])
        #expect(
            ResumeRule.judge(tagged, rangeFrom: 500, validator: "\"a\"", total: 1000) == .write(offset: 500, total: -1))
        #expect(ResumeRule.judge(unknown, rangeFrom: 500, validator: "\"a\"", total: 1000) == .startOver)
    }

    @Test(
        "a 206 of half the file to a request without Range spends the attempts and fails; one of the whole file is the file"
    )
    func unaskedPartialContent() async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let server = try FaultServer.shared()
        let half = UUID().uuidString, whole = UUID().uuidString
        let halfID = try harness.add(server.url("/file/5000?key=\(half)&unasked206=half"), [("max-tries", "3")])
        let wholeID = try harness.add(server.url("/file/5000?key=\(whole)&unasked206=whole"), [("out", "whole.bin")])
        #expect(await harness.recorder.wait(for: [halfID, wholeID]))
        let failed = try #require(harness.recorder.latest(halfID))
        #expect(failed.state == .failed && failed.attempts == 3)
        #expect(failed.lastError?.contains("206") == true)
        #expect(server.fileRequests.requests(for: half).count == 3)
        #expect(harness.recorder.latest(wholeID)?.state == .complete)
        let data = try harness.contents("whole.bin")
        #expect(data.count == 5000 && TestPattern.matches(data))
    }

    @Test("a multipart reply saves its last part; one whose body has no delimiter fails at once and leaves no file")
    func multipartDownloads() async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let server = try FaultServer.shared()
        let stream = try harness.add(server.url("/multipart/3?chunk=40"), [("out", "stream.txt")])
        let empty = try harness.add(
            server.url("/multipart/0?nodelimiter=1"), [("out", "empty.txt"), ("max-tries", "2")])
        #expect(await harness.recorder.wait(for: [stream, empty]))
        #expect(harness.recorder.latest(stream)?.state == .complete)
        #expect(try harness.contents("stream.txt") == Data(FaultServer.multipartPart(3).data))
        let failed = try #require(harness.recorder.latest(empty))
        #expect(failed.state == .failed && failed.attempts == 1, "\(failed)")
        #expect(failed.lastError?.contains("before its first part") == true)
        #expect(!(try harness.files()).contains("empty.txt"))
    }

    @Test(
        "a download named X.part (by the user: a server's is renamed) does not take X's partial file; both are whole")
    func partNamespace() async throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let server = try FaultServer.shared()
        let quoted = { (name: String) in "attachment;%20filename=%22\(name)%22" }
        // B (named x.bin.part by its out) is running when A (named x.bin by its server) is named, and ends first.
        let first = try harness.add(server.url("/file/300000?key=\(UUID())&pace=100000"), [("out", "x.bin.part")])
        #expect(await harness.recorder.wait(for: [first], until: { $0.destination != nil }))
        let second = try harness.add(server.url("/file/200000?key=\(UUID())&pace=20000&disposition=\(quoted("x.bin"))"))
        #expect(await harness.recorder.wait(for: [first, second]))
        let b = try #require(harness.recorder.latest(first)), a = try #require(harness.recorder.latest(second))
        #expect(b.state == .complete && a.state == .complete)
        #expect(b.destination?.hasSuffix("/x.bin.part") == true)
        #expect(a.destination?.hasSuffix("/x.1.bin") == true, "\(a.destination ?? "")")
        let bData = try Data(contentsOf: URL(fileURLWithPath: b.destination ?? ""))
        let aData = try Data(contentsOf: URL(fileURLWithPath: a.destination ?? ""))
        #expect(bData.count == 300_000 && TestPattern.matches(bData))
        #expect(aData.count == 200_000 && TestPattern.matches(aData))
    }

    @Test("the final rename never replaces a file: a name taken meanwhile gives the next free one")
    func renameNeverReplaces() throws {
        let harness = try QueueHarness()
        defer { harness.cleanUp() }
        let directory = harness.directory.path
        let taken = directory + "/f.txt"
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: taken))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: taken + ".part"))
        let path = try FileNaming.moveIntoPlace(taken + ".part", to: taken, replacing: false)
        #expect(path == directory + "/f.1.txt")
        #expect(try Data(contentsOf: URL(fileURLWithPath: taken)) == Data("someone else's".utf8))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("mine".utf8))
        try Data("asked".utf8).write(to: URL(fileURLWithPath: taken + ".part"))
        #expect(try FileNaming.moveIntoPlace(taken + ".part", to: taken, replacing: true) == taken)
        #expect(try Data(contentsOf: URL(fileURLWithPath: taken)) == Data("asked".utf8))
        #expect(FileNaming.isTaken(directory + "/g") == false)
        try Data().write(to: URL(fileURLWithPath: directory + "/g.part.part"))
        #expect(FileNaming.isTaken(directory + "/g"))
    }
}
