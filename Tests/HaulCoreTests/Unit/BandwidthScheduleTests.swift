import Foundation
import Synchronization
import Testing

@testable import HaulCore

/// `--bandwidth-schedule`: rules read and matched as tables of (time of week → limit), the next
/// change, and the scheduler applying them as an injected clock moves: no sleeps.
@Suite("Bandwidth schedule")
struct BandwidthScheduleTests {
    private static let mib: Int64 = 1_048_576

    /// Minutes into the week: `day` 0 is Sunday.
    private static func at(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Int {
        day * 1440 + hour * 60 + minute
    }

    @Test(
        "the first rule that matches wins; a range past midnight runs into the next day; days are optional",
        arguments: [
            (at(1, 7, 59), nil), (at(1, 8), 1 * mib), (at(1, 17, 59), 1 * mib), (at(1, 18), nil),
            (at(6, 9), nil), (at(6, 10), 5 * mib), (at(0, 21, 59), 5 * mib),
            (at(5, 23, 30), 3 * mib), (at(6, 5, 59), 3 * mib), (at(6, 6), nil), (at(1, 0, 30), 3 * mib),
        ] as [(Int, Int64?)])
    func limits(minute: Int, expected: Int64?) throws {
        let schedule = try BandwidthSchedule(
            parsing: "mon-fri 08:00-18:00 1M, sat-sun 10:00-22:00 5M, 23:00-06:00 3M, else unlimited")
        #expect(schedule.limit(at: minute, fallback: 7) == expected)
    }

    @Test("without else, the overall limit given apart applies; 24:00 ends a day; full day names read")
    func fallback() throws {
        let schedule = try BandwidthSchedule(parsing: "saturday 12:00-24:00 0")
        #expect(schedule.limit(at: Self.at(6, 23, 59), fallback: 42) == nil, "0 is no limit")
        #expect(schedule.limit(at: Self.at(0, 0), fallback: 42) == 42)
        #expect(schedule.limit(at: Self.at(3, 12), fallback: nil) == nil)
    }

    @Test("the next change: how many minutes ahead, and to what; none when the limit never changes")
    func nextChange() throws {
        let schedule = try BandwidthSchedule(parsing: "08:00-18:00 1M, else 200K")
        let next = try #require(schedule.nextChange(after: Self.at(2, 7, 30), fallback: nil))
        #expect(next.minutes == 30 && next.limit == 1 * Self.mib)
        let evening = try #require(schedule.nextChange(after: Self.at(6, 18), fallback: nil))
        #expect(evening.minutes == 14 * 60 && evening.limit == 1 * Self.mib, "over the week's end")
        let constant = try BandwidthSchedule(parsing: "00:00-24:00 1M")
        #expect(constant.nextChange(after: 0, fallback: nil) == nil)
    }

    @Test(
        "a bad schedule is refused, naming the rule and what is wrong",
        arguments: [
            ("08:00-25:00 1M", "rule 1 ('08:00-25:00 1m'): '25:00' is not a time"),
            ("08:00-18:00 1M, else 2M, 20:00-21:00 1K", "rule 3 ('20:00-21:00 1k'): 'else' comes last"),
            ("funday 08:00-18:00 1M", "'funday' is not a day"),
            ("08:00-18:00 fast", "'fast' is not a speed"),
            ("08:00-08:00 1M", "must not be empty"),
            ("08:00 1M", "is not HH:MM-HH:MM"),
            ("else 1M", "a schedule needs a rule"),
            ("", "rule 1 (''): write it as"),
            ("8:00-18:00 1M", "'8:00' is not a time"),
        ])
    func refused(text: String, message: String) {
        #expect {
            try BandwidthSchedule(parsing: text)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("the scheduler applies each change once as the clock moves, and a limit set by hand holds until the next")
    func scheduler() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        // 2026-11-23 is a Monday.
        let monday = try #require(
            Calendar(identifier: .gregorian).date(
                from: DateComponents(timeZone: utc, year: 2026, month: 11, day: 23, hour: 7, minute: 58)))
        let clock = Mutex(monday)
        let applied = Mutex<[Int64?]>([])
        let statuses = Mutex<[BandwidthScheduler.Status]>([])
        let scheduler = BandwidthScheduler(
            try BandwidthSchedule(parsing: "08:00-18:00 1M, else unlimited"), fallback: nil, timeZone: utc,
            clock: { clock.withLock { $0 } }, apply: { limit in applied.withLock { $0.append(limit) } },
            onStatus: { status in statuses.withLock { $0.append(status) } })
        scheduler.check()
        #expect(applied.withLock { $0 } == [nil])
        #expect(statuses.withLock { $0.last?.nextChange } == monday.addingTimeInterval(120))
        clock.withLock { $0 = monday.addingTimeInterval(60) }
        scheduler.check()
        #expect(applied.withLock { $0 } == [nil], "nothing changed: a limit set by hand meanwhile holds")
        clock.withLock { $0 = monday.addingTimeInterval(125) }
        scheduler.check()
        #expect(applied.withLock { $0 } == [nil, Self.mib])
        let status = try #require(statuses.withLock { $0.last })
        #expect(status.nextChange == monday.addingTimeInterval(120 + 10 * 3600) && status.nextLimit == nil)
        #expect(
            status.summary(limit: status.limit, detail: .whenAndNext, now: monday, timeZone: utc)
                == "limit 1.0 MiB/s until 18:00, then none")
        #expect(
            status.summary(limit: 500, detail: .when, now: monday.addingTimeInterval(-2 * 86_400), timeZone: utc)
                == "limit 500 B/s until Mon 18:00", "a limit set by hand; a change a day or more away")
    }
}
