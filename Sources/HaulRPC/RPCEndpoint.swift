import Foundation

// MARK: - RPCEndpoint

/// Turns a request's JSON text into its reply's: one call or a batch of them, each checked
/// for its secret, `system.multicall` calls checked one by one. Never throws and never traps:
/// text that is not JSON gets aria2's parse error. Any thread, but not an event loop: a
/// method may write a file.
public final class RPCEndpoint: Sendable {
    public let methods: Aria2Methods
    public let secretGuard: SecretGuard

    public init(methods: Aria2Methods, secretGuard: SecretGuard) {
        self.methods = methods
        self.secretGuard = secretGuard
    }

    /// The notifications a WebSocket client may hear, as `system.listNotifications` lists them.
    public static let notificationNames = Aria2Notification.Kind.allCases.map(\.method)

    /// The reply to the request text `body` from `peer` (an address, for slowing guessers down).
    public func reply(to body: some DataProtocol, from peer: String) -> Data {
        guard let request = JSONValue.parse(body) else {
            return RPCFailure(id: .null, error: .parseError).reply.encoded
        }
        return reply(to: request, from: peer).encoded
    }

    /// The reply to a parsed request: an object for one call, an array for a batch.
    public func reply(to request: JSONValue, from peer: String) -> JSONValue {
        guard case .array(let calls) = request else { return reply(toCall: request, from: peer) }
        guard !calls.isEmpty else { return RPCFailure(id: .null, error: .invalidRequest).reply }
        return .array(calls.map { reply(toCall: $0, from: peer) })
    }

    private func reply(toCall value: JSONValue, from peer: String) -> JSONValue {
        switch RPCCall.read(value) {
        case .failure(let failure): return failure.reply
        case .success(let call):
            switch run(call, from: peer) {
            case .success(let result): return call.reply(result)
            case .failure(let error): return RPCFailure(id: call.id, error: error).reply
            }
        }
    }

    /// Runs one call: its secret checked (system methods need none), then its method.
    func run(_ call: RPCCall, from peer: String, nested: Bool = false) -> Result<JSONValue, RPCError> {
        var call = call
        let token = call.takeToken()
        switch call.method {
        case "system.listMethods": return .success(.array(Aria2Methods.names.map(JSONValue.string)))
        case "system.listNotifications": return .success(.array(RPCEndpoint.notificationNames.map(JSONValue.string)))
        case "system.multicall":
            guard !nested else { return .failure(RPCError("Recursive system.multicall forbidden.")) }
            return multicall(call.params, from: peer)
        default:
            switch secretGuard.check(token, from: peer) {
            case .allowed: break
            case .wrongSecret: return .failure(.unauthorized)
            case .slowedDown(let wait):
                let seconds = max(Int(wait.components.seconds), 1)
                return .failure(
                    RPCError("Unauthorized: too many wrong secrets from this address; try again in \(seconds) s"))
            }
            do {
                return .success(try methods.call(call.method, RPCParams(call.params)))
            } catch {
                return .failure(error)
            }
        }
    }

    /// `system.multicall([{methodName, params}, …])`: each result in an array of one, each
    /// failure as an error object, as aria2 answers.
    private func multicall(_ params: [JSONValue], from peer: String) -> Result<JSONValue, RPCError> {
        guard params.count == 1, let calls = params[0].array else {
            return .failure(.invalidParams("system.multicall takes one array of {methodName, params}"))
        }
        return .success(
            .array(
                calls.map { value in
                    guard let object = value.object, let method = object["methodName"]?.string,
                        let params = (object["params"] ?? []).array
                    else { return RPCError.invalidRequest.json }
                    switch run(RPCCall(method: method, params: params), from: peer, nested: true) {
                    case .success(let result): return [result]
                    case .failure(let error): return error.json
                    }
                }))
    }
}
