// MARK: - BandwidthSchedule

/// Overall speed limits by time of day and day of week (`--bandwidth-schedule`), as rules
/// separated by commas, the first that matches winning:
///
///     08:00-18:00 1M, sat-sun 10:00-22:00 5M, 23:00-06:00 unlimited, else 2M
///
/// A rule is optional days (`mon`, or a range `mon-fri`), a time range `HH:MM-HH:MM` (the end may
/// be `24:00`; a range that ends before it starts runs past midnight, into the next day), and a
/// speed (`500K`, `1M`; `unlimited`, `none` or `0` for none). `else SPEED` applies when no rule
/// matches; without it, the limit given apart (`--max-overall-download-limit`) does. Pure: a time
/// of the week in, a limit out, so every rule is a table test.
public struct BandwidthSchedule: Sendable, Equatable, CustomStringConvertible {
    /// One rule: on these days (0 is Sunday), from `start` to `end` (minutes into the day).
    struct Rule: Sendable, Equatable {
        let days: Set<Int>
        let start: Int
        let end: Int
        let limit: Int64?

        func matches(_ minuteOfWeek: Int) -> Bool {
            let day = minuteOfWeek / BandwidthSchedule.minutesPerDay
            let minute = minuteOfWeek % BandwidthSchedule.minutesPerDay
            if start < end { return days.contains(day) && minute >= start && minute < end }
            return (days.contains(day) && minute >= start) || (days.contains((day + 6) % 7) && minute < end)
        }
    }

    static let minutesPerDay = 24 * 60
    public static let minutesPerWeek = 7 * minutesPerDay
    static let dayNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    let rules: [Rule]
    /// The `else` rule's limit: `.some(nil)` for none, nil when the schedule has no `else`.
    let otherwise: Int64??
    /// The rules as they were written, each trimmed.
    public let description: String

    /// Reads a schedule; throws naming the rule that is wrong and why.
    ///
    /// - Parameter text: Such as `mon-fri 08:00-18:00 1M, sat-sun 10:00-22:00 5M, else unlimited`.
    /// - Throws: `OptionError` naming the rule that is wrong and why.
    public init(parsing text: String) throws(OptionError) {
        var rules: [Rule] = []
        var otherwise: Int64??
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            let words = part.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { $0.lowercased() }
            let place = "rule \(index + 1) ('\(TextSanitizer.visible(words.joined(separator: " ")))')"
            do throws(OptionError) {
                if words.first == "else" {
                    guard words.count == 2 else { throw OptionError("write it as 'else SPEED'") }
                    guard otherwise == nil else { throw OptionError("there is one 'else' at most") }
                    otherwise = .some(try Self.speed(words[1]))
                } else {
                    guard otherwise == nil else { throw OptionError("'else' comes last") }
                    rules.append(try Self.rule(words))
                }
            } catch {
                throw OptionError("\(place): \(error.description)")
            }
        }
        guard !rules.isEmpty else { throw OptionError("a schedule needs a rule such as '08:00-18:00 1M'") }
        self.rules = rules
        self.otherwise = otherwise
        description = parts.map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ") }
            .joined(separator: ", ")
    }

    /// The limit in force at `minuteOfWeek` (0 is Sunday 00:00), given `fallback` for when no rule
    /// matches and there is no `else`; nil for none.
    ///
    /// - Parameters:
    ///   - minuteOfWeek: Minutes since Sunday 00:00; any number, taken modulo a week.
    ///   - fallback: The limit when no rule matches and there is no `else`.
    /// - Returns: The limit in bytes a second, or nil for none.
    public func limit(at minuteOfWeek: Int, fallback: Int64?) -> Int64? {
        let minute = ((minuteOfWeek % Self.minutesPerWeek) + Self.minutesPerWeek) % Self.minutesPerWeek
        if let rule = rules.first(where: { $0.matches(minute) }) { return rule.limit }
        return otherwise ?? fallback
    }

    /// When the limit next changes after `minuteOfWeek` (minutes ahead) and to what; nil when it
    /// never does.
    func nextChange(after minuteOfWeek: Int, fallback: Int64?) -> (minutes: Int, limit: Int64?)? {
        let now = limit(at: minuteOfWeek, fallback: fallback)
        for ahead in 1...Self.minutesPerWeek {
            let then = limit(at: minuteOfWeek + ahead, fallback: fallback)
            if then != now { return (ahead, then) }
        }
        return nil
    }

    // MARK: - Parsing

    private static func rule(_ words: [String]) throws(OptionError) -> Rule {
        guard words.count == 2 || words.count == 3 else {
            throw OptionError("write it as '[DAYS] HH:MM-HH:MM SPEED', e.g. 'mon-fri 08:00-18:00 1M'")
        }
        let days = words.count == 3 ? try Self.days(words[0]) : Set(0..<7)
        let times = words[words.count - 2].split(separator: "-", omittingEmptySubsequences: false)
        guard times.count == 2 else { throw OptionError("'\(words[words.count - 2])' is not HH:MM-HH:MM") }
        let start = try Self.minute(String(times[0]))
        let end = try Self.minute(String(times[1]))
        guard start != end, start < minutesPerDay else {
            throw OptionError("a time range must not be empty, and start before 24:00")
        }
        return Rule(days: days, start: start, end: end, limit: try Self.speed(words[words.count - 1]))
    }

    /// `mon`, or `mon-fri` (a range may wrap: `fri-mon`); days are named by three letters or in
    /// full.
    private static func days(_ word: String) throws(OptionError) -> Set<Int> {
        let ends = word.split(separator: "-", omittingEmptySubsequences: false).map { name in
            dayNames.firstIndex { name == $0 || name == $0.prefix(3) }
        }
        guard (1...2).contains(ends.count), let first = ends[0], let last = ends[ends.count - 1] else {
            throw OptionError("'\(TextSanitizer.visible(word))' is not a day or a range of days, such as mon-fri")
        }
        var days: Set<Int> = [first]
        var day = first
        while day != last {
            day = (day + 1) % 7
            days.insert(day)
        }
        return days
    }

    /// `HH:MM` as minutes into the day, `24:00` included.
    private static func minute(_ text: String) throws(OptionError) -> Int {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hour = Int(parts[0]),
            let minute = Int(parts[1]), (0...24).contains(hour), (0..<60).contains(minute),
            hour < 24 || minute == 0
        else {
            throw OptionError("'\(TextSanitizer.visible(text))' is not a time (HH:MM, 00:00 to 24:00)")
        }
        return hour * 60 + minute
    }

    /// A speed: nil for none.
    private static func speed(_ word: String) throws(OptionError) -> Int64? {
        if word == "unlimited" || word == "none" { return nil }
        do {
            let bytes = try ByteCount.parse(word)
            return bytes > 0 ? bytes : nil
        } catch {
            throw OptionError("'\(TextSanitizer.visible(word))' is not a speed (such as 500K, 1M, or unlimited)")
        }
    }
}
