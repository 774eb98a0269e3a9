import HaulNet
import HaulText

// MARK: - OptionKind

/// How one option's text becomes its typed value and back, as swift-argument-parser's
/// `ExpressibleByArgument`: every rule an option's value follows, each saying what was wrong.
/// Shared by every option of the kind, wherever its text comes from (the command line,
/// config.toml, a queue file, the store, an RPC client).
public struct OptionKind<Value: Sendable & Equatable>: Sendable {
    /// What help calls the value (`n`, `size`, `speed`).
    public let valueName: String
    let parse: @Sendable (String) throws(OptionError) -> Value
    /// The text that reads back as the value; secrets in it (a proxy's password) shown as `***`
    /// unless asked for.
    let format: @Sendable (Value, _ includingSecrets: Bool) -> String
    /// How help shows a value: as `format`, but a size as a person writes it (`20M`).
    let readable: @Sendable (Value) -> String
    /// Every value there is, for the shells' completion, when there are few (`true`, `false`).
    public let choices: [String]

    init(
        _ valueName: String, parse: @escaping @Sendable (String) throws(OptionError) -> Value,
        format: @escaping @Sendable (Value, Bool) -> String, readable: (@Sendable (Value) -> String)? = nil,
        choices: [String] = []
    ) {
        self.valueName = valueName
        self.parse = parse
        self.format = format
        self.readable = readable ?? { format($0, false) }
        self.choices = choices
    }
}

// MARK: - Kinds

extension OptionKind where Value == String {
    /// Any text (with no control character: every option checks that first).
    public static var text: OptionKind { OptionKind("text", parse: { $0 }, format: { value, _ in value }) }

    /// Text that must not be empty.
    public static var nonEmpty: OptionKind {
        OptionKind("text", parse: DownloadOptions.Values.nonEmpty, format: { value, _ in value })
    }

    /// A URL that may carry a password, shown without it.
    public static var url: OptionKind {
        OptionKind("url", parse: { $0 }, format: { URIText.shown($0, includingSecrets: $1) })
    }

    /// A file name relative to the download directory (`DownloadOptions.Values.relativeName`).
    public static var relativeName: OptionKind {
        OptionKind("file", parse: DownloadOptions.Values.relativeName, format: { value, _ in value })
    }

    /// A proxy (`DownloadOptions.Values.proxy`), shown without its password.
    public static var proxy: OptionKind {
        OptionKind("proxy", parse: DownloadOptions.Values.proxy, format: { URIText.shown($0, includingSecrets: $1) })
    }
}

extension OptionKind where Value == Int {
    /// A whole number in `range`.
    ///
    /// - Parameter range: The numbers allowed.
    /// - Returns: A kind whose text is a decimal number.
    public static func integer(_ range: ClosedRange<Int>) -> OptionKind {
        OptionKind(
            "n", parse: { text throws(OptionError) in try DownloadOptions.Values.integer(text, in: range) },
            format: { value, _ in String(value) })
    }
}

extension OptionKind where Value == Int64 {
    /// A size such as `1M`, at least `minimum`.
    ///
    /// - Parameter minimum: The smallest size allowed, in bytes.
    /// - Returns: A kind whose text is a size with an optional K, M or G.
    public static func size(atLeast minimum: Int64) -> OptionKind {
        OptionKind(
            "size", parse: { text throws(OptionError) in try DownloadOptions.Values.size(text, atLeast: minimum) },
            format: { value, _ in String(value) }, readable: ByteCount.optionText)
    }
}

extension OptionKind where Value == Double {
    /// A decimal number in `range` (`1.5`).
    ///
    /// - Parameter range: The numbers allowed.
    /// - Returns: A kind whose text is a decimal number.
    public static func decimal(_ range: ClosedRange<Double>) -> OptionKind {
        OptionKind(
            "n", parse: { text throws(OptionError) in try DownloadOptions.Values.decimal(text, in: range) },
            format: { value, _ in String(value) })
    }
}

extension OptionKind where Value == Bool {
    /// `true` or `false`, as aria2 spells them.
    public static var boolean: OptionKind {
        OptionKind(
            "bool", parse: DownloadOptions.Values.boolean, format: { value, _ in String(value) },
            choices: ["true", "false"])
    }
}

extension OptionKind where Value: OptionValueText {
    /// A value of a type that reads and writes its own text.
    ///
    /// - Parameter valueName: How help names the value (`SPEED`, `TYPE=HEX`).
    /// - Returns: A kind that reads and writes through `Value`'s `OptionValueText`.
    public static func parsed(_ valueName: String) -> OptionKind {
        OptionKind(
            valueName, parse: { text throws(OptionError) in try Value(parsing: text) },
            format: { value, _ in value.description })
    }
}

extension OptionKind where Value: OptionValueText & CaseIterable {
    /// One of a few values, each reading and writing its own text.
    static func oneOf(_ valueName: String) -> OptionKind {
        OptionKind(
            valueName, parse: { text throws(OptionError) in try Value(parsing: text) },
            format: { value, _ in value.description }, choices: Value.allCases.map(\.description))
    }
}

// MARK: - OptionValueText

/// A value that reads itself from an option's text, saying what was wrong, and writes the text
/// that reads back as itself.
public protocol OptionValueText: Sendable, Equatable, CustomStringConvertible {
    /// The value `text` spells.
    ///
    /// - Parameter text: The option's text.
    /// - Throws: `OptionError` saying what is wrong with it.
    init(parsing text: String) throws(OptionError)
}

extension SpeedLimit: OptionValueText {}
extension FileSelection: OptionValueText {}
extension BandwidthSchedule: OptionValueText {}

extension OptionKind where Value == SpeedLimit {
    /// A speed in bytes a second (`500K`), 0 for none.
    public static var speed: OptionKind {
        OptionKind(
            "speed", parse: { text throws(OptionError) in try SpeedLimit(parsing: text) },
            format: { value, _ in value.description }, readable: { ByteCount.optionText($0.bytesPerSecond) })
    }
}
extension ExpectedChecksum: OptionValueText {}
extension PieceHashes: OptionValueText {}
extension SSHHostKeyDigest: OptionValueText {}

extension GID: OptionValueText {
    public init(parsing text: String) throws(OptionError) {
        guard let gid = GID(text) else { throw OptionError("a gid is 16 hex digits, not all zero") }
        self = gid
    }
}

extension SplitMode: OptionValueText {
    public init(parsing text: String) throws(OptionError) {
        guard let mode = SplitMode(rawValue: text) else {
            throw OptionError("'\(text)' is not a split mode haul has: 'auto' or 'fixed'")
        }
        self = mode
    }

    public var description: String { rawValue }
}

extension SegmentPlanner.Order: OptionValueText {
    public init(parsing text: String) throws(OptionError) {
        guard let order = SegmentPlanner.Order(rawValue: text) else {
            throw OptionError("'\(text)' is not a piece order haul has: 'default' or 'inorder'")
        }
        self = order
    }

    public var description: String { rawValue }
}
