import Foundation

// MARK: - NginxServer

/// A real nginx on 127.0.0.1 serving HTTPS (and HTTP/2) from a scratch directory, with a CA and a
/// server certificate made by `openssl` when it starts. Needs the nginx and openssl packages
/// (`make test` installs them).
public final class NginxServer: Sendable {
    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
    }

    public let port: Int
    /// The directory nginx serves; put files here.
    public let root: URL
    /// The PEM file of the CA that signed the server's certificate.
    public let caFile: String
    private let directory: URL
    private let process: Process

    /// Starts nginx with `files` (path → bytes) in its document root; those under `metalink/`
    /// are served as `application/metalink4+xml`. `serverLines` go into its server block
    /// (`keepalive_requests 40;`), `httpLines` into its http block (`limit_conn_zone …;`).
    public static func start(
        files: [String: [UInt8]], serverLines: String = "", httpLines: String = ""
    ) throws -> NginxServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haul-nginx-\(UUID().uuidString)")
        let root = directory.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (name, bytes) in files {
            let file = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: file)
        }
        try makeCertificates(in: directory)
        let port = try LoopbackPort.free()
        let config = directory.appendingPathComponent("nginx.conf")
        try configuration(directory: directory.path, port: port, serverLines: serverLines, httpLines: httpLines).write(
            to: config, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: try locate("nginx", in: ["/usr/sbin", "/usr/bin", "/usr/local/sbin"]))
        process.arguments = ["-p", directory.path, "-c", config.path]
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let server = NginxServer(
            port: port, root: root, caFile: directory.appendingPathComponent("ca.pem").path,
            directory: directory, process: process)
        try server.waitUntilListening()
        return server
    }

    private init(port: Int, root: URL, caFile: String, directory: URL, process: Process) {
        self.port = port
        self.root = root
        self.caFile = caFile
        self.directory = directory
        self.process = process
    }

    public func url(_ path: String, host: String = "127.0.0.1") -> URL {
        guard let url = URL(string: "https://\(host):\(port)\(path)") else {
            preconditionFailure("not a URL path: \(path)")
        }
        return url
    }

    public func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: - Set-up

    private static func configuration(directory: String, port: Int, serverLines: String, httpLines: String) -> String {
        """
        user root;
        worker_processes 1;
        daemon off;
        pid \(directory)/nginx.pid;
        error_log \(directory)/error.log;
        events { worker_connections 512; }
        http {
            access_log off;
            client_body_temp_path \(directory)/tmp-body;
            proxy_temp_path \(directory)/tmp-proxy;
            fastcgi_temp_path \(directory)/tmp-fastcgi;
            uwsgi_temp_path \(directory)/tmp-uwsgi;
            scgi_temp_path \(directory)/tmp-scgi;
            \(httpLines)
            server {
                listen 127.0.0.1:\(port) ssl http2;
                ssl_certificate \(directory)/server.pem;
                ssl_certificate_key \(directory)/server.key;
                root \(directory)/www;
                # Files under /metalink/ are answered as Metalinks (aria2's --follow-metalink).
                location /metalink/ { default_type application/metalink4+xml; }
                \(serverLines)
            }
        }
        """
    }

    /// A CA (`ca.pem`) and a server certificate for 127.0.0.1 and localhost signed by it
    /// (`server.pem`, `server.key`), made in `directory` by openssl.
    public static func makeCertificates(in directory: URL) throws {
        let openssl = try locate("openssl", in: ["/usr/bin", "/usr/local/bin"])
        let path = directory.path
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(
            toFile: "\(path)/ext.cnf", atomically: true, encoding: .utf8)
        let steps = [
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=haul test CA", "-keyout", "\(path)/ca.key", "-out", "\(path)/ca.pem",
            ],
            [
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=127.0.0.1",
                "-keyout", "\(path)/server.key", "-out", "\(path)/server.csr",
            ],
            [
                "x509", "-req", "-in", "\(path)/server.csr", "-CA", "\(path)/ca.pem", "-CAkey", "\(path)/ca.key",
                "-CAcreateserial", "-days", "2", "-extfile", "\(path)/ext.cnf", "-out", "\(path)/server.pem",
            ],
        ]
        for arguments in steps {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: openssl)
            process.arguments = arguments
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw SetupError(description: "openssl \(arguments.joined(separator: " ")) failed")
            }
        }
    }

    static func locate(_ tool: String, in directories: [String]) throws -> String {
        for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(tool)") {
            return "\(directory)/\(tool)"
        }
        throw SetupError(description: "\(tool) is not installed; run `make test`, which installs it")
    }

    /// Polls until nginx accepts connections (it binds right after start), up to 10 s.
    private func waitUntilListening() throws {
        for _ in 0..<500 {
            if !process.isRunning {
                let log =
                    (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
                throw SetupError(description: "nginx exited at start: \(log)")
            }
            if LoopbackPort.accepts(port) { return }
            usleep(20_000)
        }
        throw SetupError(description: "nginx did not start listening on port \(port)")
    }
}
