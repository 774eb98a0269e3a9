import Foundation

// MARK: - HTTPDate

/// The IMF-fixdate of HTTP (`Sun, 06 Nov 1994 08:49:37 GMT`), as Retry-After, Last-Modified and
/// If-Modified-Since carry it.
public enum HTTPDate {
    /// The date in `text`, or nil when it is not an IMF-fixdate.
    public static func parse(_ text: String) -> Date? {
        formatter().date(from: text.trimmingCharacters(in: .whitespaces))
    }

    /// `date` as an IMF-fixdate.
    public static func format(_ date: Date) -> String {
        formatter().string(from: date)
    }

    /// A new formatter each time: DateFormatter is not safe to share between threads, and
    /// these dates are read once per response at most.
    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }
}
