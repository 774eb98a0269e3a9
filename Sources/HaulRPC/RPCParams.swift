import HaulCore

// MARK: - RPCParams

/// A call's parameters (its secret already taken off), read by position; a missing or
/// mistyped one is an error that names it.
struct RPCParams {
    let values: [JSONValue]

    init(_ values: [JSONValue]) {
        self.values = values
    }

    func string(_ index: Int, _ name: String) throws(RPCError) -> String {
        guard let value = values.indices.contains(index) ? values[index].string : nil else {
            throw .invalidParams("\(name) (parameter \(index + 1)) must be a string")
        }
        return value
    }

    /// The integer at `index`, held within ±`integerBound`: every integer a client sends is a
    /// position, an offset or a count in a queue, which no queue reaches, so a number past it
    /// means the same as the bound and no sum with it can overflow.
    func integer(_ index: Int, _ name: String) throws(RPCError) -> Int {
        guard let value = values.indices.contains(index) ? values[index].integer : nil else {
            throw .invalidParams("\(name) (parameter \(index + 1)) must be an integer")
        }
        return min(max(value, -RPCParams.integerBound), RPCParams.integerBound)
    }

    /// The largest integer parameter taken as it is (2^40).
    static let integerBound = 1 << 40

    /// The parameter at `index`, or nil when the call stopped before it.
    func optional(_ index: Int) -> JSONValue? {
        values.indices.contains(index) ? values[index] : nil
    }

    func optionalInteger(_ index: Int, _ name: String) throws(RPCError) -> Int? {
        guard optional(index) != nil, optional(index) != .null else { return nil }
        return try integer(index, name)
    }

    /// An array of strings (`uris`, `keys`); nil when absent.
    func strings(_ index: Int, _ name: String) throws(RPCError) -> [String]? {
        guard let value = optional(index), value != .null else { return nil }
        guard let array = value.array else {
            throw .invalidParams("\(name) (parameter \(index + 1)) must be an array of strings")
        }
        var strings: [String] = []
        for element in array {
            guard let string = element.string else {
                throw .invalidParams("\(name) (parameter \(index + 1)) must be an array of strings")
            }
            strings.append(string)
        }
        return strings
    }

    /// Options as an object of names to values; a value may be a string, a number, a boolean or
    /// (for options given more than once, such as `header`) an array of strings. A hook
    /// (`on-download-complete`…) is refused: its text would run as the daemon's user.
    func options(_ index: Int) throws(RPCError) -> [(String, String)] {
        guard let value = optional(index), value != .null else { return [] }
        guard let object = value.object else {
            throw .invalidParams("options (parameter \(index + 1)) must be an object")
        }
        var pairs: [(String, String)] = []
        for (name, value) in object.sorted(by: { $0.key < $1.key }) {
            if DownloadHooks.isHookOption(name) {
                throw RPCError(DownloadHooks.refusal(of: RPCError.shown(name), in: "an RPC client"))
            }
            let texts: [String]? =
                switch value {
                case .string(let text): [text]
                case .int(let number): [String(number)]
                case .bool(let flag): [String(flag)]
                case .array(let elements):
                    elements.allSatisfy({ $0.string != nil }) ? elements.compactMap(\.string) : nil
                default: nil
                }
            guard let texts else {
                throw .invalidParams("option '\(RPCError.shown(name))' must be a string or an array of strings")
            }
            pairs += texts.map { (name, $0) }
        }
        return pairs
    }
}
