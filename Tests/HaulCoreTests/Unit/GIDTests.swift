import Testing

@testable import HaulCore

@Suite("gids")
struct GIDTests {
    @Test("a gid is 16 hex digits, either case, not all zero; it is written in lower case")
    func parsing() {
        let table: [(text: String, written: String?)] = [
            ("0123456789abcdef", "0123456789abcdef"),
            ("0123456789ABCDEF", "0123456789abcdef"),
            ("ffffffffffffffff", "ffffffffffffffff"),
            ("0000000000000001", "0000000000000001"),
            ("0000000000000000", nil),
            ("0123456789abcde", nil),
            ("0123456789abcdef0", nil),
            ("0123456789abcdeg", nil),
            (" 123456789abcdef", nil),
            ("", nil),
            ("０１２３４５６７８９ａｂｃｄｅｆ", nil),
        ]
        for row in table {
            #expect(GID(row.text)?.description == row.written, "\(row.text)")
        }
        #expect(GID(UInt64(0)) == nil)
        #expect(GID(UInt64(0xab))?.description == "00000000000000ab")
    }

    @Test("new gids follow one another and are never zero")
    func next() {
        let gids = (0..<1000).map { _ in GID.next() }
        // Rising, but for one wrap past the largest; other threads may take gids between.
        #expect(zip(gids, gids.dropFirst()).count { $0.value >= $1.value } <= 1)
        #expect(Set(gids).count == gids.count && gids.allSatisfy { $0.value != 0 })
        #expect(gids.allSatisfy { GID($0.description) == $0 })
    }

    @Test("a queue file's gid option takes a gid and refuses anything else by what it must be")
    func option() throws {
        var options = DownloadOptions()
        try options.set("gid", "00000000000000AB")
        #expect(options.gid == GID(UInt64(0xab)))
        #expect(options.pairs(includingSecrets: false).contains { $0 == ("gid", "00000000000000ab") })
        for bad in ["0000000000000000", "xyz", "00000000000000ab0"] {
            #expect(throws: OptionError.self) { try options.set("gid", bad) }
        }
    }

    @Test("gids hash by their seed: gids apart only in their high bits spread over a small table's buckets")
    func hashSpreads() throws {
        // 256 gids a table of 256 buckets tells apart by the low 8 bits of their hash only.
        let gids = try (1...256).map { try #require(GID(UInt64($0) << 40)) }
        for seed in [0, 1, -7, 0x5eed_5eed] {
            let buckets = Set(gids.map { $0._rawHashValue(seed: seed) & 0xFF })
            // At random, some 162 of 256; the words themselves, without the mix, 1.
            #expect(buckets.count > 128, "seed \(seed): \(buckets.count) buckets")
        }
        let gid = try #require(GID(0x1234))
        #expect(gid._rawHashValue(seed: 1) != gid._rawHashValue(seed: 2))
        #expect(gid._rawHashValue(seed: 1) == GID(0x1234)?._rawHashValue(seed: 1))
        // Tables of gids find what they hold.
        let many = (1...10_000).compactMap { GID(UInt64($0) << 32) }
        let set = Set(many)
        #expect(set.count == 10_000 && many.allSatisfy(set.contains))
    }

    @Test("the hash hook is WordHash's, through OneWordHashable, for gids and connection ids alike")
    func oneHashHook() throws {
        let gid = try #require(GID(0xfeed))
        let connection = ConnectionID(number: 42, downloadID: gid)
        for seed in [0, 3, -1] {
            #expect(gid._rawHashValue(seed: seed) == WordHash.value(0xfeed, seed: seed))
            #expect(connection._rawHashValue(seed: seed) == WordHash.value(42, seed: seed))
        }
        // Equal by number alone, as the core compares connections, and so hashed alike.
        #expect(connection == ConnectionID(number: 42, downloadID: try #require(GID(1))))
        var table: [ConnectionID: Int] = [:]
        for number in 0..<5000 { table[ConnectionID(number: number, downloadID: gid)] = number }
        #expect((0..<5000).allSatisfy { table[ConnectionID(number: $0, downloadID: gid)] == $0 })
    }
}
