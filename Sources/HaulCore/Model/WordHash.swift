// MARK: - WordHash

/// The hash a one-word key (a gid, a connection's number) gives a `Dictionary`, `Set` or
/// `OrderedDictionary`: the table's seed mixed in, then murmur3's 64-bit finalizer, a few
/// instructions where the standard `Hasher` (SipHash) takes a hundred. The queue looks its
/// downloads and connections up some 45 times a small file, and SipHash was a tenth of its
/// thread's work. Which keys share a bucket still depends on the seed, which a process chooses
/// at random (and a table on where it lives): a gid an RPC client chose cannot be aimed at one.
enum WordHash {
    /// `word` hashed with the table's `seed`.
    static func value(_ word: UInt64, seed: Int) -> Int {
        var mixed = word ^ UInt64(UInt(bitPattern: seed))
        mixed ^= mixed >> 33
        mixed &*= 0xff51_afd7_ed55_8ccd
        mixed ^= mixed >> 33
        mixed &*= 0xc4ce_b9fe_1a85_ec53
        mixed ^= mixed >> 33
        return Int(truncatingIfNeeded: mixed)
    }
}

// MARK: - OneWordHashable

/// A key that hashes as one word (`hashWord`): its `hash(into:)` combines that word, and the
/// standard library's hook for a table's hash (`_rawHashValue(seed:)`) is `WordHash`'s, so
/// `Dictionary` and `Set` skip SipHash. The one place haul overrides that hook; a type adopts it
/// by naming its word. Keys equal by `==` must have equal words.
public protocol OneWordHashable: Hashable {
    /// The word the key is hashed by.
    var hashWord: UInt64 { get }
}

extension OneWordHashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(hashWord)
    }

    /// The hash tables use (`WordHash`), in place of SipHash over the one word.
    ///
    /// - Parameter seed: The table's per-process seed.
    /// - Returns: The hash of `hashWord` mixed with `seed`.
    public func _rawHashValue(seed: Int) -> Int {
        WordHash.value(hashWord, seed: seed)
    }
}
