import Foundation
import HaulTestSupport
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// MARK: - DaemonProcess

/// `haul daemon` run as a user runs it, on a free loopback port, in a scratch directory with
/// its own state directory; its stderr (the event log) is kept as it arrives.
final class DaemonProcess: Sendable {
    let process: Process
    let port: Int
    private let log: Log

    /// Text that arrives on one thread and is read on another.
    final class Log: Sendable {
        private let text = Mutex("")
        func append(_ data: Data) { text.withLock { $0 += String(decoding: data, as: UTF8.self) } }
        var value: String { text.withLock { $0 } }
    }

    /// The log so far.
    var stderr: String { log.value }

    /// Starts the daemon and waits (up to 20 s) until it says which port it listens on. Its
    /// arguments are any free port, `-d out` and `extra`, or `extra` alone when
    /// `replacingDefaults`.
    static func start(
        in directory: URL, _ extra: [String] = [], environment: [String: String] = [:], replacingDefaults: Bool = false
    ) async throws -> DaemonProcess {
        let defaults = replacingDefaults ? [] : ["--rpc-listen-port", "0", "-d", "out"]
        let (process, errors) = try HaulProcess.start(
            ["daemon"] + defaults + extra, in: directory, environment: environment)
        let log = Log()
        Thread.detachNewThread {
            let handle = errors.fileHandleForReading
            while case let data = handle.availableData, !data.isEmpty { log.append(data) }
        }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, process.isRunning {
            if let port = DaemonProcess.port(in: log.value) {
                return DaemonProcess(process: process, port: port, log: log)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        throw DaemonError(description: "the daemon did not start listening: \(log.value)")
    }

    private init(process: Process, port: Int, log: Log) {
        self.process = process
        self.port = port
        self.log = log
    }

    /// The port in the daemon's "listening on …, port N" line.
    private static func port(in log: String) -> Int? {
        guard let range = log.range(of: ", port ") else { return nil }
        return Int(log[range.upperBound...].prefix { $0.isNumber })
    }

    struct DaemonError: Error, CustomStringConvertible {
        let description: String
    }

    /// POSTs `body` to `/jsonrpc` with `headers`; returns the status and the body.
    func post(_ body: String, headers: [String: String] = [:]) async throws -> (status: Int, body: String) {
        try await DaemonProcess.post(body, port: port, headers: headers)
    }

    /// POSTs `body` to `/jsonrpc` on loopback port `port` (haul's daemon or aria2c's) with
    /// `headers`; returns the status and the body.
    static func post(
        _ body: String, port: Int, headers: [String: String] = [:]
    ) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: URL(fileURLWithPath: "/"))
        request.url = URL(string: "http://127.0.0.1:\(port)/jsonrpc")
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await DaemonProcess.send(request)
    }

    static func send(_ request: URLRequest) async throws -> (status: Int, body: String) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = [:]
        let (data, response) = try await URLSession(configuration: configuration).data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// The result of one call (`params` as JSON text), parsed; throws when the reply is an error.
    func call(_ method: String, _ params: String = "[]") async throws -> Any {
        let reply = try await post("{\"jsonrpc\":\"2.0\",\"id\":\"t\",\"method\":\"\(method)\",\"params\":\(params)}")
        let object = try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any]
        guard let result = object?["result"] else { throw DaemonError(description: "\(method): \(reply.body)") }
        return result
    }

    /// Stops the daemon as a service manager does (SIGTERM) and waits for it.
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

// MARK: - Aria2pTools

/// aria2p from PyPI, in the virtual environment `make test` makes under `.build/venv`.
enum Aria2pTools {
    /// The environment's python, when it is there.
    static var python: String? { TestVenv.python }

    /// Whether the suite runs in CI, where every tool `make test` installs must be there.
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"
}
