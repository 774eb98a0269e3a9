import Foundation
import Testing

@testable import HaulNet

/// HTTP dates as servers send them, and as they should not: a wrong one is nil, never a trap.
@Suite("HTTP dates")
struct HTTPDateTests {
    @Test("an IMF-fixdate reads and writes back")
    func roundTrip() throws {
        let date = try #require(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(date.timeIntervalSince1970 == 784_111_777)
        #expect(HTTPDate.format(date) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 1_788_300_000)) == "Tue, 01 Sep 2026 22:00:00 GMT")
        #expect(HTTPDate.parse(" \tSun, 06 Nov 1994 08:49:37 GMT\t ") == date)
    }

    @Test("days are counted as timegm counts them, a day past a month's end included")
    func daysAsTimegm() {
        for year in stride(from: 1899, through: 2101, by: 3) {
            for month in 1...12 {
                for day in [1, 15, 28, 29, 30, 31] {
                    var parts = tm()
                    parts.tm_year = Int32(year - 1900)
                    parts.tm_mon = Int32(month - 1)
                    parts.tm_mday = Int32(day)
                    let expected = Int(timegm(&parts)) / 86_400
                    #expect(
                        HTTPDate.daysSince1970(year: year, month: month, day: day) == expected,
                        "\(year)-\(month)-\(day)")
                }
            }
        }
        #expect(HTTPDate.parse("Sat, 29 Feb 2020 23:59:60 GMT")?.timeIntervalSince1970 == 1_583_020_800)
    }

    @Test(
        "anything else is nil: other formats, bad fields, and Unicode Foundation's formatter trapped on",
        arguments: [
            "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT",
            "Sun\u{35D}\u{FFFD}\u{FFFD}lements37 ", "Sun, ٠٦ Nov 1994 08:49:37 GMT", "",
            "Sun, 06 Nov 1994 08:49:37 GMT\r\n", "Sun,  6 Nov 1994 08:49:37 GMT", "sun, 06 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:3\u{E9}GMT",
        ])
    func rejects(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
