import Foundation

// MARK: - RPCEndpoint

/// Turns a request's JSON text into its reply's: one call or a batch of them, each checked
/// for its secret, `system.multicall` calls checked one by one. Never throws and never traps:
/// text that is not JSON gets aria2's parse error. Any thread, but not an event loop: a
/// method may write a file.
package final class RPCEndpoint: Sendable {
    package let methods: Aria2Methods
    package let secretGuard: SecretGuard

    /// Where a call refused for its secret is said, once an address.
    let refusals: RefusalLog?

    package init(methods: Aria2Methods, secretGuard: SecretGuard, refusals: RefusalLog? = nil) {
        self.methods = methods
        self.secretGuard = secretGuard
        self.refusals = refusals
    }

    /// The notifications a WebSocket client may hear, as `system.listNotifications` lists them.
    package static let notificationNames = Aria2Notification.Kind.allCases.map(\.method)

    /// The reply to the request text `body` from `peer` (an address, for slowing guessers down).
    package func reply(to body: some DataProtocol, from peer: String) -> Data {
        answer(to: JSONValue.parse(body), from: peer).reply
    }

    /// The reply to a parsed request: an object for one call, an array for a batch. `overGET`:
    /// it came as a GET's query, which a web page can make a browser send without asking (an
    /// image's address): with no secret to check, only methods that change nothing are run.
    package func reply(to request: JSONValue, from peer: String, overGET: Bool = false) -> JSONValue {
        var hold = Duration.zero
        return reply(to: request, from: peer, overGET: overGET, hold: &hold)
    }

    /// The reply to `request` (nil: text that is not JSON), as text; how long to hold it back
    /// before it is sent (a wrong secret's hold, `SecretGuard`, the longest of a batch's); and
    /// the HTTP status aria2 sends it with (`httpStatus(of:)`).
    package func answer(
        to request: JSONValue?, from peer: String, overGET: Bool = false
    ) -> (reply: Data, hold: Duration, httpStatus: Int) {
        guard let request else {
            let failure = RPCFailure(id: .null, error: .parseError).reply
            return (failure.encoded, .zero, RPCEndpoint.httpStatus(of: failure))
        }
        var hold = Duration.zero
        let reply = reply(to: request, from: peer, overGET: overGET, hold: &hold)
        return (reply.encoded, hold, RPCEndpoint.httpStatus(of: reply))
    }

    /// The HTTP status aria2 answers `reply` with: 200 for a result or a batch; for one call's
    /// error, 400 (a method's error, "Unauthorized" and "No such method" among them, or an
    /// invalid request) or 500 (any other, a parse error among them). AriaNg reads `error` only
    /// from a reply that is not 2xx.
    static func httpStatus(of reply: JSONValue) -> Int {
        guard let code = reply.object?["error"]?.object?["code"]?.integer else { return 200 }
        return code == 1 || code == -32600 ? 400 : 500
    }

    private func reply(to request: JSONValue, from peer: String, overGET: Bool, hold: inout Duration) -> JSONValue {
        guard case .array(let calls) = request else {
            return reply(toCall: request, from: peer, overGET: overGET, hold: &hold)
        }
        guard !calls.isEmpty else { return RPCFailure(id: .null, error: .invalidRequest).reply }
        return .array(calls.map { reply(toCall: $0, from: peer, overGET: overGET, hold: &hold) })
    }

    private func reply(toCall value: JSONValue, from peer: String, overGET: Bool, hold: inout Duration) -> JSONValue {
        switch RPCCall.read(value) {
        case .failure(let failure): return failure.reply
        case .success(let call):
            switch run(call, from: peer, overGET: overGET, hold: &hold) {
            case .success(let result): return call.reply(result)
            case .failure(let error): return RPCFailure(id: call.id, error: error).reply
            }
        }
    }

    /// Runs one call: its secret checked (system methods need none), then its method. A wrong
    /// secret lengthens `hold` to its own.
    func run(
        _ call: RPCCall, from peer: String, overGET: Bool = false, nested: Bool = false, hold: inout Duration
    ) -> Result<JSONValue, RPCError> {
        var call = call
        let token = call.takeToken()
        switch call.method {
        case "system.listMethods": return .success(.array(Aria2Methods.names.map(JSONValue.string)))
        case "system.listNotifications": return .success(.array(RPCEndpoint.notificationNames.map(JSONValue.string)))
        case "system.multicall":
            guard !nested else { return .failure(RPCError("Recursive system.multicall forbidden.")) }
            return multicall(call.params, from: peer, overGET: overGET, hold: &hold)
        default:
            if overGET, !secretGuard.requiresSecret, !Aria2Methods.changesNothing(call.method) {
                return .failure(
                    RPCError("\(RPCError.shown(call.method)) changes the queue: send it by POST (or set --rpc-secret)"))
            }
            if case .wrongSecret(let wait) = secretGuard.check(token, from: peer) {
                refusals?.refused(
                    "refused calls from \(peer): a wrong or missing secret "
                        + "(give the client the one set by --rpc-secret)")
                hold = max(hold, wait)
                return .failure(.unauthorized)
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
    private func multicall(
        _ params: [JSONValue], from peer: String, overGET: Bool, hold: inout Duration
    ) -> Result<JSONValue, RPCError> {
        guard params.count == 1, let calls = params[0].array else {
            return .failure(.invalidParams("system.multicall takes one array of {methodName, params}"))
        }
        return .success(
            .array(
                calls.map { value in
                    guard let object = value.object, let method = object["methodName"]?.string,
                        let params = (object["params"] ?? []).array
                    else { return RPCError.invalidRequest.json }
                    let call = RPCCall(method: method, params: params)
                    switch run(call, from: peer, overGET: overGET, nested: true, hold: &hold) {
                    case .success(let result): return [result]
                    case .failure(let error): return error.json
                    }
                }))
    }
}
