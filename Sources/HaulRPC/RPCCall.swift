// MARK: - RPCCall

/// One JSON-RPC call as a client sent it: the method, its parameters and the id the reply
/// echoes. A call that is not an object with a string `method` is refused as aria2 refuses it.
package struct RPCCall: Sendable, Equatable {
    package let id: JSONValue
    package let method: String
    package var params: [JSONValue]

    package init(id: JSONValue = .null, method: String, params: [JSONValue] = []) {
        self.id = id
        self.method = method
        self.params = params
    }

    /// The call `value` describes, or the error to reply with (and the id, if one was readable).
    static func read(_ value: JSONValue) -> Result<RPCCall, RPCFailure> {
        guard let object = value.object else { return .failure(RPCFailure(id: .null, error: .invalidRequest)) }
        let id = object["id"] ?? .null
        guard let method = object["method"]?.string else {
            return .failure(RPCFailure(id: id, error: .invalidRequest))
        }
        switch object["params"] {
        case nil, .null: return .success(RPCCall(id: id, method: method))
        case .array(let params): return .success(RPCCall(id: id, method: method, params: params))
        default: return .failure(RPCFailure(id: id, error: .paramsNotArray))
        }
    }

    /// The first parameter when it is a secret (`token:…`), taken off the parameters; nil when
    /// the call carries none.
    mutating func takeToken() -> String? {
        guard case .string(let first)? = params.first, first.hasPrefix("token:") else { return nil }
        params.removeFirst()
        return String(first.dropFirst("token:".count))
    }

    /// A reply's `result` to this call.
    func reply(_ result: JSONValue) -> JSONValue {
        ["id": id, "jsonrpc": "2.0", "result": result]
    }
}

/// A call that failed, as its reply says it.
struct RPCFailure: Error, Equatable {
    let id: JSONValue
    let error: RPCError

    var reply: JSONValue { ["id": id, "jsonrpc": "2.0", "error": error.json] }
}
