import Foundation
import HaulNet
import Testing

@testable import HaulCore

/// Options merged field by field, and every one of them reaching the request it shapes.
@Suite("Download options")
struct DownloadOptionsTests {
    @Test("header options set one by one take linear time; options that share a box are not changed")
    func manyHeaders() throws {
        func time(_ count: Int) throws -> Duration {
            var options = DownloadOptions()
            let clock = ContinuousClock()
            let start = clock.now
            for index in 0..<count { try options.set("header", "X-H\(index): v") }
            #expect(options.headers.count == count)
            return clock.now - start
        }
        _ = try time(1000)
        let ratio = try time(40_000) / time(10_000)
        #expect(ratio < 8, "40k/10k took \(ratio)x")
        var shared = DownloadOptions()
        try shared.set("header", "X-A: 1")
        var copy = shared
        try copy.set("header", "X-B: 2")
        #expect(shared.headers == ["X-A: 1"] && copy.headers == ["X-A: 1", "X-B: 2"])
        #expect(throws: OptionError.self) { try copy.set("split", "0") }
        #expect(copy.headers.count == 2, "a refused option changes nothing")
    }

    @Test("a download's own value wins, an unset one comes from the defaults, headers add up")
    func merging() throws {
        var defaults = DownloadOptions()
        try defaults.set("timeout", "30")
        try defaults.set("max-tries", "9")
        try defaults.set("header", "X-A: 1")
        try defaults.set("checksum", "sha-256=" + String(repeating: "a", count: 64))
        var own = DownloadOptions()
        try own.set("timeout", "5")
        try own.set("connect-timeout", "2")
        try own.set("header", "X-B: 2")
        let merged = own.merged(over: defaults)
        #expect(merged.timeout == 5 && merged.connectTimeout == 2 && merged.maxTries == 9)
        #expect(merged.headers == ["X-A: 1", "X-B: 2"])
        #expect(merged.checksum == defaults.checksum)
        #expect(DownloadOptions().merged(over: defaults) == defaults)
    }

    @Test("every merged option that shapes a request reaches it: timeouts, login, proxies, limits, headers")
    func request() throws {
        var options = DownloadOptions()
        for (name, value) in [
            ("timeout", "30"), ("connect-timeout", "4"), ("user-agent", "ua"), ("referer", "http://r/"),
            ("http-user", "ann"), ("http-passwd", "pw"), ("all-proxy", "socks5h://127.0.0.1:1080"),
            ("max-download-limit", "1M"), ("lowest-speed-limit", "1K"), ("header", "X-A: 1"),
        ] {
            try options.set(name, value)
        }
        let request = DownloadQueue.Configuration().request(
            for: try #require(URL(string: "http://127.0.0.1/f")),
            options: EffectiveOptions(options))
        #expect(request.timeoutInterval == 30 && request.connectTimeout == 4)
        #expect(request.userAgent == "ua" && request.headers["Referer"] == "http://r/" && request.headers["X-A"] == "1")
        #expect(request.credentials?.user == "ann" && request.credentials?.password == "pw")
        #expect(request.proxies.all == "socks5h://127.0.0.1:1080")
        #expect(request.maxReceiveSpeed == 1 << 20 && request.lowestSpeed == 1024)
    }
}
