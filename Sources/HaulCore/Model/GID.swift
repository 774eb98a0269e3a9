import Synchronization

// MARK: - GID

/// A download's id, aria2's gid: a number other than zero, written as 16 lowercase hex digits
/// wherever it leaves haul (RPC, queue files, sessions, the store, hooks, file marks). Inside it
/// stays a number: 8 bytes beside each download, where its text would be a 16-byte string on the
/// heap, one byte too long to be kept inline (tens of megabytes for a queue of a million), and it hashes
/// and compares as one word.
public struct GID: OneWordHashable, Comparable, Sendable, CustomStringConvertible {
    /// The number the 16 hex digits spell.
    public let value: UInt64

    /// The gid `value` (not zero: zero is no gid to aria2).
    ///
    /// - Parameter value: The gid's 64 bits.
    public init?(_ value: UInt64) {
        guard value != 0 else { return nil }
        self.value = value
    }

    /// The gid `text` spells: exactly 16 hex digits, either case, not all zero; nil otherwise.
    ///
    /// - Parameter text: A gid as aria2 writes it, such as `2089b05ecca3d829`.
    public init?(_ text: some StringProtocol) {
        var number: UInt64 = 0
        var count = 0
        for byte in text.utf8 {
            guard count < 16, let digit = GID.digitValue(byte) else { return nil }
            number = number << 4 | UInt64(digit)
            count += 1
        }
        guard count == 16 else { return nil }
        self.init(number)
    }

    /// The 16 lowercase hex digits.
    public var description: String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 {
                let digit = UInt8((value >> UInt64(60 - 4 * index)) & 0xF)
                buffer[index] = digit < 10 ? 0x30 + digit : 0x57 + digit
            }
            return 16
        }
    }

    public static func < (lhs: GID, rhs: GID) -> Bool { lhs.value < rhs.value }

    public var hashWord: UInt64 { value }

    /// A new gid: the one after the last this process made, counting from a random start. A
    /// queue file's entries then get neighbouring gids, which the store's index takes in one
    /// pass rather than at a million random places, and two runs still meet only by a chance
    /// of one in billions. Any thread.
    ///
    /// - Returns: A gid no other download of this process has.
    public static func next() -> GID {
        while true {
            if let gid = GID(counter.wrappingAdd(1, ordering: .relaxed).oldValue) { return gid }
        }
    }

    private static let counter = Atomic<UInt64>(UInt64.random(in: 1...UInt64.max))

    private static func digitValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x61...0x66: byte - 0x57
        case 0x41...0x46: byte - 0x37
        default: nil
        }
    }
}
