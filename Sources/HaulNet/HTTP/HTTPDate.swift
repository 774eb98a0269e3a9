import Foundation
import HaulText

// MARK: - HTTPDate

/// The IMF-fixdate of HTTP (`Sun, 06 Nov 1994 08:49:37 GMT`), as Retry-After, Last-Modified and
/// If-Modified-Since carry it. Read and written by hand, byte by byte: the text comes from
/// servers, and Foundation's DateFormatter traps on some Unicode it is given (found by fuzzing).
public enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    /// The names' bytes, to compare in place (a String's own bytes are walked at a cost).
    private static let dayBytes = days.map { Array($0.utf8) }
    private static let monthBytes = months.map { Array($0.utf8) }
    private static let gmt = Array(" GMT".utf8)

    /// The date in `text` (spaces and tabs around it aside), or nil when it is not an
    /// IMF-fixdate. Read off its UTF-8 bytes in place: a saved file's Last-Modified is read on
    /// the engine thread, once a file.
    ///
    /// - Parameter text: A header value such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    /// - Returns: The date, or nil for any other form (RFC 850 and asctime dates included).
    public static func parse(_ text: String) -> Date? {
        text.withUTF8Bytes { all -> Date? in
            // "Sun, 06 Nov 1994 08:49:37 GMT": 29 ASCII bytes in fixed places.
            let bytes = UnsafeRawBufferPointer(all).trimmingHTTPWhitespace(lineEnds: false)
            guard bytes.count == 29 else { return nil }
            func matches(_ at: Int, _ expected: [UInt8]) -> Bool {
                UnsafeRawBufferPointer(rebasing: bytes[at...]).starts(with: expected)
            }
            func number(_ at: Int, _ length: Int) -> Int? {
                var value = 0
                for byte in bytes[at..<(at + length)] {
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                }
                return value
            }
            guard dayBytes.contains(where: { matches(0, $0) }), bytes[3] == UInt8(ascii: ","), bytes[4] == 0x20,
                bytes[7] == 0x20, bytes[11] == 0x20, bytes[16] == 0x20, bytes[19] == UInt8(ascii: ":"),
                bytes[22] == UInt8(ascii: ":"), matches(25, gmt), let day = number(5, 2),
                let month = monthBytes.firstIndex(where: { matches(8, $0) }),
                let year = number(12, 4), let hour = number(17, 2), let minute = number(20, 2),
                let second = number(23, 2), (1...31).contains(day), hour < 24, minute < 60, second <= 60
            else { return nil }
            let days = daysSince1970(year: year, month: month + 1, day: day)
            return Date(timeIntervalSince1970: TimeInterval(((days * 24 + hour) * 60 + minute) * 60 + second))
        }
    }

    /// Days from 1970-01-01 to the given day of the proleptic Gregorian calendar (`month` 1
    /// to 12; a day past the month's end counts on, as `timegm` has it). Howard Hinnant's
    /// `days_from_civil`: `timegm` cost more than the rest of a date's reading.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `date` as an IMF-fixdate.
    ///
    /// - Parameter date: Any date; the fraction of a second is dropped.
    /// - Returns: `date` in GMT, such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func format(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        let two = { (value: Int32) in value < 10 ? "0\(value)" : "\(value)" }
        let weekday = days[Int(parts.tm_wday)], month = months[Int(parts.tm_mon)]
        return "\(weekday), \(two(parts.tm_mday)) \(month) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
