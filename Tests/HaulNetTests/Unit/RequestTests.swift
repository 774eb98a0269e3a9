import Foundation
import Testing

@testable import HaulNet

/// `Request`'s copies share one box of its fields, and setting a field makes a new one: each
/// copy must still behave as a value of its own.
@Suite("Request")
struct RequestTests {
    @Test("a changed copy leaves the original as it was, field by field and in nested values")
    func copiesAreValues() throws {
        var original = Request(url: try #require(URL(string: "https://h.test/f")))
        original.headers.add("Accept", "*/*")
        original.ssh.knownHosts = "/k"
        var copy = original
        copy.url = try #require(URL(string: "https://h.test/g"))
        copy.headers.set("Accept", "text/plain")
        copy.headers.add("Referer", "https://h.test/")
        copy.ssh.knownHosts = nil
        copy.byteRange = ByteRange(from: 10)
        copy.credentials = Credentials(user: "u", password: "p")

        #expect(original.url.absoluteString == "https://h.test/f")
        #expect(original.headers.fields == [HTTPHeaders.Field(name: "Accept", value: "*/*")])
        #expect(original.ssh.knownHosts == "/k" && original.byteRange == nil && original.credentials == nil)
        #expect(copy.url.absoluteString == "https://h.test/g")
        #expect(copy.headers["accept"] == "text/plain" && copy.headers["Referer"] == "https://h.test/")
        #expect(copy.ssh.knownHosts == nil && copy.byteRange?.lowerBound == 10 && copy.credentials?.user == "u")

        var fields = copy.fields
        fields.method = "POST"
        let rebuilt = Request(fields)
        #expect(rebuilt.method == "POST" && copy.method == "GET")
        #expect(rebuilt.url == copy.url && rebuilt.headers.fields == copy.headers.fields)
    }

    @Test("a request changed where no copy shares it keeps the change; a copy made after sees it")
    func changesInPlace() throws {
        var request = Request(url: try #require(URL(string: "http://h.test/")))
        #expect(request.method == "GET" && request.timeoutInterval == 60 && request.maxRedirects == 20)
        request.method = "HEAD"
        request.timeoutInterval = 5
        let later = request
        request.maxRedirects = 0
        #expect(later.method == "HEAD" && later.timeoutInterval == 5 && later.maxRedirects == 20)
        #expect(request.maxRedirects == 0 && request.userAgent == Request.defaultUserAgent)
    }

    @Test("copies changed on other threads at once each keep only their own change")
    func copiesOnThreads() async throws {
        let shared = Request(url: try #require(URL(string: "http://h.test/")))
        let agents = await withTaskGroup(of: String.self) { group in
            for index in 0..<32 {
                group.addTask {
                    var mine = shared
                    mine.userAgent = "agent-\(index)"
                    mine.headers.add("X-Index", String(index))
                    return mine.headers["X-Index"] == String(index) ? mine.userAgent : "wrong"
                }
            }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(agents == Set((0..<32).map { "agent-\($0)" }))
        #expect(shared.userAgent == Request.defaultUserAgent && shared.headers.count == 0)
    }
}
