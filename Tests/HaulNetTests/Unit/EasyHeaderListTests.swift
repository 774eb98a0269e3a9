import CCurl
import Foundation
import Testing

@testable import HaulNet

// MARK: - Header lists

/// The header list handed to libcurl: every line in order, built in time linear in its length.
@Suite("Easy header list")
struct EasyHeaderListTests {
    /// The lines of a libcurl list, in order.
    private func lines(_ list: UnsafeMutablePointer<curl_slist>?) -> [String] {
        var lines: [String] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data { lines.append(String(cString: data)) }
            node = current.pointee.next
        }
        return lines
    }

    @Test("the lines keep their order; one holding a line break is left out")
    func order() throws {
        let easy = try #require(haul_curl_easy_init())
        defer { haul_curl_easy_cleanup(easy) }
        var options = EasyOptions(easy: easy)
        let list = options.setHeaders(["A: 1", "B: 2\r\nEvil: 1", "C: 3", "D: 4"])
        defer { haul_curl_slist_free_all(list) }
        #expect(lines(list) == ["A: 1", "C: 3", "D: 4"])
        #expect(options.failure == nil)
    }

    @Test("40,000 header lines take about four times 10,000's, not sixteen (each append walked the list)")
    func linear() throws {
        let easy = try #require(haul_curl_easy_init())
        defer { haul_curl_easy_cleanup(easy) }
        func time(_ count: Int) -> Duration {
            var options = EasyOptions(easy: easy)
            let headers = (0..<count).map { "X-H\($0): v" }
            let clock = ContinuousClock()
            let start = clock.now
            let list = options.setHeaders(headers)
            let took = clock.now - start
            #expect(lines(list).count == count)
            haul_curl_slist_free_all(list)
            return took
        }
        _ = time(1000)
        // The fastest of three each: one run's time reads the machine's load as much as the list
        // (a ratio of 8.2 was seen once under a busy CI run).
        let fastest = { (count: Int) in (0..<3).map { _ in time(count) }.min() ?? .zero }
        let ratio = fastest(40_000) / fastest(10_000)
        #expect(ratio < 8, "40k/10k took \(ratio)x")
    }
}
