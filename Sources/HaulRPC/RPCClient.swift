import Foundation
import HaulCore
import HaulNet

// MARK: - RPCClient

/// Calls an aria2-compatible daemon's JSON-RPC (haul's, or `aria2c --enable-rpc`) over HTTP(S)
/// with libcurl, or over the Unix socket a local haul listens on; the secret, if any, goes
/// first in every call. Any thread; calls run concurrently.
package final class RPCClient: Sendable {
    /// Why a call got no result.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The daemon could not be reached, or answered with an HTTP error.
        case unreachable(String)
        /// The daemon answered with a JSON-RPC error.
        case refused(RPCError)
        /// The answer was not a JSON-RPC reply.
        case badReply(String)

        package var description: String {
            switch self {
            case .unreachable(let why): why
            case .refused(let error): error.message
            case .badReply(let why): "the daemon's reply could not be read (\(why))"
            }
        }
    }

    /// `http://HOST:PORT/jsonrpc` (or https), as the user gave it.
    package let url: URL
    let socketPath: String?
    let secret: String?
    let tls: TLSOptions
    private let fetcher: Fetcher

    /// A client of the daemon at `url` (`socketPath`: over that Unix socket instead of TCP).
    /// Over HTTPS the daemon's certificate is verified as `tls` says (by default against the
    /// system's authorities).
    package init(
        url: URL, secret: String? = nil, socketPath: String? = nil, tls: TLSOptions = TLSOptions(),
        engine: ConnectionEngine = .shared
    ) {
        self.url = url
        self.tls = tls
        self.secret = secret
        self.socketPath = socketPath
        fetcher = Fetcher(engine: engine)
        // aria2c answers a refused call with a 400 and the JSON-RPC error as the body.
        fetcher.failsOnHTTPError = false
        fetcher.maximumBodyLength = 64 << 20
    }

    /// A client of the haul whose state directory is `stateDirectory`, over its socket.
    package static func local(stateDirectory: String) -> RPCClient {
        let path = RPCServer.socketPath(in: stateDirectory)
        return RPCClient(url: URL(fileURLWithPath: path), socketPath: path)
    }

    /// The result of `method` with `params` (the secret put first).
    package func call(_ method: String, _ params: [JSONValue] = []) async throws(Failure) -> JSONValue {
        try await call(method, sending: withSecret(params))
    }

    private func call(_ method: String, sending params: [JSONValue]) async throws(Failure) -> JSONValue {
        let reply = try await send(
            ["jsonrpc": "2.0", "id": "haul", "method": .string(method), "params": .array(params)])
        guard let object = reply.object else { throw .badReply("not an object") }
        if let error = object["error"]?.object {
            throw .refused(RPCError(code: error["code"]?.integer ?? 1, error["message"]?.string ?? "error"))
        }
        guard let result = object["result"] else { throw .badReply("no result") }
        return result
    }

    /// Several calls in one request (`system.multicall`), each with its own result or error.
    package func multicall(_ calls: [(String, [JSONValue])]) async throws(Failure) -> [Result<JSONValue, RPCError>] {
        let list = JSONValue.array(
            calls.map { ["methodName": .string($0.0), "params": .array(withSecret($0.1))] })
        // The secret goes in each call, not in the multicall itself.
        guard let results = try await call("system.multicall", sending: [list]).array, results.count == calls.count
        else {
            throw .badReply("system.multicall answered another number of calls")
        }
        return results.map { result in
            if let value = result.array?.first { return .success(value) }
            let error = result.object
            return .failure(RPCError(code: error?["code"]?.integer ?? 1, error?["message"]?.string ?? "error"))
        }
    }

    private func withSecret(_ params: [JSONValue]) -> [JSONValue] {
        (secret.map { [JSONValue.string("token:" + $0)] } ?? []) + params
    }

    private func send(_ request: JSONValue) async throws(Failure) -> JSONValue {
        var post = Request(url: socketPath == nil ? url : URL(string: "http://localhost/jsonrpc") ?? url)
        post.method = "POST"
        post.body = .bytes(Array(request.encoded))
        post.headers.set("Content-Type", "application/json")
        post.timeoutInterval = 15
        post.connectTimeout = 5
        post.unixSocketPath = socketPath
        post.tls = tls
        let body: Data
        let response: Response
        do {
            (body, response) = try await fetcher.data(for: post)
        } catch let error as ConnectionError {
            throw .unreachable(error.description)
        } catch {
            throw .unreachable("\(error)")
        }
        if let reply = JSONValue.parse(body) { return reply }
        guard response.statusCode < 400 else {
            let said = String(decoding: body.prefix(200), as: UTF8.self).split(separator: "\n").first.map(String.init)
            throw .unreachable(
                "the daemon answered \(response.statusCode) \(TextSanitizer.visible(response.reasonPhrase))"
                    + (said.map { ": " + TextSanitizer.visible($0) } ?? ""))
        }
        throw .badReply("not JSON")
    }
}
