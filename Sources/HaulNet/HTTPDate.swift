import Foundation

// MARK: - HTTPDate

/// The IMF-fixdate of HTTP (`Sun, 06 Nov 1994 08:49:37 GMT`), as Retry-After, Last-Modified and
/// If-Modified-Since carry it. Read and written by hand, byte by byte: the text comes from
/// servers, and Foundation's DateFormatter traps on some Unicode it is given (found by fuzzing).
public enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The date in `text`, or nil when it is not an IMF-fixdate.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        // "Sun, 06 Nov 1994 08:49:37 GMT": 29 ASCII bytes in fixed places.
        guard bytes.count == 29, bytes.allSatisfy({ $0 < 0x80 }),
            let text = String(bytes: bytes, encoding: .ascii)
        else { return nil }
        let characters = Array(text)
        func field(_ start: Int, _ length: Int) -> String { String(characters[start..<(start + length)]) }
        func number(_ start: Int, _ length: Int) -> Int? {
            let digits = field(start, length)
            return digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber) ? Int(digits) : nil
        }
        guard days.contains(field(0, 3)), field(3, 2) == ", ", characters[7] == " ", characters[11] == " ",
            characters[16] == " ", characters[19] == ":", characters[22] == ":", field(25, 4) == " GMT",
            let day = number(5, 2), let month = months.firstIndex(of: field(8, 3)), let year = number(12, 4),
            let hour = number(17, 2), let minute = number(20, 2), let second = number(23, 2),
            (1...31).contains(day), hour < 24, minute < 60, second <= 60
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    /// `date` as an IMF-fixdate.
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
