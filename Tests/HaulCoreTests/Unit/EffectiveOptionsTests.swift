import Testing

@testable import HaulCore

// MARK: - EffectiveOptionsTests

@Suite("Effective options: built-in values applied once")
struct EffectiveOptionsTests {
    /// Options given as aria2 names and values.
    private static func given(_ pairs: [(String, String)]) throws -> EffectiveOptions {
        var options = DownloadOptions()
        for (name, value) in pairs { try options.set(name, value) }
        return EffectiveOptions(options)
    }

    @Test("nothing given: each option's built-in value, and automatic splitting")
    func builtIns() throws {
        let options = try Self.given([])
        #expect(options.maxTries == BuiltInOptions.maxTries && options.timeout == BuiltInOptions.timeout)
        #expect(options.lowestSpeedLimit == BuiltInOptions.lowestSpeedLimit)
        #expect(options.resumableAbove == BuiltInOptions.resumableAbove)
        #expect(options.splitting.automatic && options.splitting.minSplitSize == BuiltInOptions.autoMinSplitSize)
        #expect(options.given.maxTries == nil, "what was given stays apart from what is applied")
    }

    @Test(
        "splitting resolved whole: given options → automatic, connections, per server, smallest part, limit over 1 and 3 mirrors",
        arguments: [
            ([], true, 5, 16, Int64(1) << 20, 16, 16),
            ([("split", "8")], false, 8, 1, 20 << 20, 1, 3),
            ([("max-connection-per-server", "4")], false, 5, 4, 20 << 20, 4, 5),
            ([("split", "8"), ("max-connection-per-server", "4")], false, 8, 4, 20 << 20, 4, 8),
            ([("split-mode", "fixed")], false, 5, 1, 20 << 20, 1, 3),
            ([("min-split-size", "2M")], true, 5, 16, 2 << 20, 16, 16),
        ] as [([(String, String)], Bool, Int, Int, Int64, Int, Int)])
    func splitting(
        pairs: [(String, String)], automatic: Bool, connections: Int, perServer: Int, minSplitSize: Int64,
        oneMirror: Int, threeMirrors: Int
    ) throws {
        let splitting = try Self.given(pairs).splitting
        #expect(splitting.automatic == automatic && splitting.connections == connections)
        #expect(splitting.perServer == perServer && splitting.minSplitSize == minSplitSize)
        #expect(splitting.limit(mirrors: 1) == oneMirror && splitting.limit(mirrors: 3) == threeMirrors)
    }

    @Test("an automatic split grows only for a body past resumable-above with room for four parts")
    func mayGrow() throws {
        let options = try Self.given([("resumable-above", "8M")])
        #expect(!options.mayGrow(total: 8 << 20) && options.mayGrow(total: (8 << 20) + 1))
        let small = try Self.given([("resumable-above", "0"), ("min-split-size", "4M")])
        #expect(!small.mayGrow(total: (16 << 20) - 1) && small.mayGrow(total: 16 << 20))
    }

    @Test("options without a built-in value read through as given")
    func readsThrough() throws {
        let options = try Self.given([("out", "f.bin"), ("retry-wait", "3")])
        #expect(options.out == "f.bin" && options.retryWait == 3 && options.checksum == nil)
    }
}
