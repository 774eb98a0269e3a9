import HaulCore

// MARK: - RPCError

/// A JSON-RPC error as aria2 sends it: the protocol's own codes for a request that could not be
/// read, and code 1 with a message a person can act on for a method that failed.
package struct RPCError: Error, Sendable, Equatable, CustomStringConvertible {
    package let code: Int
    package let message: String

    package init(code: Int = 1, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }

    package static let parseError = RPCError(code: -32700, "Parse error.")
    package static let invalidRequest = RPCError(code: -32600, "Invalid Request.")
    package static let unauthorized = RPCError("Unauthorized")

    /// As aria2 answers a method it does not have: its error code 1 (and so HTTP 400), not
    /// JSON-RPC's -32601.
    package static func noSuchMethod(_ name: String) -> RPCError {
        RPCError("No such method: \(RPCError.shown(name))")
    }

    /// A request whose `params` is not an array: JSON-RPC's -32602 (and so HTTP 500), as aria2
    /// answers it.
    package static let paramsNotArray = RPCError(code: -32602, "Invalid params: params must be an array")

    /// A parameter of the wrong type or value, or one missing: aria2's code 1 (and so HTTP 400),
    /// as aria2 answers it ("The parameter at 0 has wrong type."), saying which and why.
    package static func invalidParams(_ why: String) -> RPCError { RPCError("Invalid params: \(why)") }

    package static func gidNotFound(_ gid: String) -> RPCError {
        RPCError("GID \(RPCError.shown(gid)) is not found")
    }

    /// Text a client sent, as an error message may quote it: control characters made visible,
    /// at most 64 characters.
    static func shown(_ text: String) -> String {
        let visible = TextSanitizer.visible(text)
        return visible.count > 64 ? String(visible.prefix(64)) + "…" : visible
    }

    /// The error as a reply's `error` member.
    var json: JSONValue { ["code": .int(Int64(code)), "message": .string(message)] }
}
