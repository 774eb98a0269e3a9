import Testing

@testable import HaulCore

/// `SplitGrowth` as a table: the speeds measured step by step, and what it says to do.
@Suite("Automatic splitting: how many connections")
struct SplitGrowthTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let limit: Int
        /// Speeds (MiB/s) measured one window after another.
        let rates: [Double]
        let steps: [SplitGrowth.Step]
        let connections: Int
        let reason: String
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "a link that caps each connection at 2 MiB/s grows to the most allowed", limit: 8,
            rates: [2, 8, 16], steps: [.add(3), .add(4), .hold], connections: 8,
            reason: "8 connections: the most allowed (--max-connection-per-server)"),
        Row(
            name: "a link one connection fills goes back to one", limit: 8, rates: [100, 101],
            steps: [.add(3), .remove(3)], connections: 1, reason: "1 connection: 4 were 1% faster than 1"),
        Row(
            name: "a link that rewards two connections keeps two", limit: 8, rates: [60, 100],
            steps: [.add(3), .remove(2)], connections: 2, reason: "2 connections: 4 were 67% faster than 1"),
        Row(
            name: "a link that caps the total at five connections' worth settles on five", limit: 8,
            rates: [2, 8, 10], steps: [.add(3), .add(4), .remove(3)], connections: 5,
            reason: "5 connections: 8 were 25% faster than 4"),
        Row(
            name: "a slower step keeps the connections before it", limit: 16, rates: [2, 8, 6],
            steps: [.add(3), .add(12), .remove(12)], connections: 4,
            reason: "4 connections: 16 were 0% faster than 4"),
        Row(
            name: "a limit of one never adds", limit: 1, rates: [2], steps: [.hold], connections: 1,
            reason: "1 connection: no more allowed"),
        Row(
            name: "a limit between steps is the last step's end", limit: 3, rates: [2, 6], steps: [.add(2), .hold],
            connections: 3, reason: "3 connections: the most allowed (--max-connection-per-server)"),
        Row(
            name: "a window with no bytes is measured again", limit: 8, rates: [0, 2, 8, 16],
            steps: [.again, .add(3), .add(4), .hold], connections: 8,
            reason: "8 connections: the most allowed (--max-connection-per-server)"),
    ]

    @Test("rates over time give add, hold or remove", arguments: rows)
    func table(_ row: Row) {
        var growth = SplitGrowth(limit: row.limit)
        var steps: [SplitGrowth.Step] = []
        for rate in row.rates { steps.append(growth.measured(rate: rate * 1_048_576)) }
        #expect(steps == row.steps)
        #expect(growth.connections == row.connections)
        #expect(growth.reason == row.reason)
        #expect(growth.isSettled)
    }

    @Test("a server that refuses an added connection settles it on those running, and nothing more is added")
    func pushedBack() {
        var growth = SplitGrowth(limit: 8)
        #expect(growth.measured(rate: 2_000_000) == .add(3))
        growth.pushedBack(running: 2, why: "503", startedAt: 10, now: 11)
        #expect(growth.connections == 2 && growth.isSettled)
        #expect(growth.reason == "2 connections: the server refused more (503)")
        #expect(growth.measured(rate: 4_000_000) == .hold)
        // Another of the same step: the count is the same push-back's.
        growth.pushedBack(running: 2, why: "503", startedAt: 10, now: 11.2)
        #expect(growth.connections == 2)
        // One started since, in a finished one's place, refused too: one connection.
        growth.pushedBack(running: 1, why: "429", startedAt: 12, now: 12.5)
        #expect(growth.connections == 1 && growth.reason == "1 connection: the server refused more twice (429)")
    }

    @Test("under a speed limit, the step that reaches it is kept; the first step is taken whatever one connection did")
    func speedLimit() {
        var growth = SplitGrowth(limit: 16, speedLimit: 512_000)
        #expect(growth.measured(rate: 204_800) == .add(3))
        #expect(growth.measured(rate: 500_000) == .hold)
        #expect(growth.connections == 4 && growth.reason == "4 connections: they reach the speed limit (500.0 KiB/s)")
        var burst = SplitGrowth(limit: 16, speedLimit: 512_000)
        #expect(burst.measured(rate: 1_000_000) == .add(3))
    }

    @Test("too little left settles on the connections running")
    func finishing() {
        var growth = SplitGrowth(limit: 8)
        _ = growth.measured(rate: 2_000_000)
        growth.finish(running: 4)
        #expect(growth.connections == 4 && growth.reason == "4 connections: too little left for more")
    }
}
