// MARK: - RPCOptions

/// How `haul daemon` listens, named as aria2c names it (`--rpc-listen-port`, `--rpc-secret`…).
struct RPCOptions {
    var port = 6800
    var listenAll = false
    var secret: String?
    var secretFile: String?
    var allowOriginAll = false
    var maxRequestSize: Int64 = 2 << 20
    var allowedDirectory: String?
    var secure = false
    var certificate: String?
    var privateKey: String?

    static let options: [OptionSpec<RPCOptions>] = [
        .value("rpc-listen-port", "port", help: "The JSON-RPC port (1024 to 65535; default 6800).") {
            $0.port = try OptionValue.int($1)
        },
        .flag("rpc-listen-all", help: "Listen on every address, not only 127.0.0.1 (then --rpc-secret is required).") {
            $0.listenAll = $1
        },
        .value(
            "rpc-secret", "secret",
            help: "The secret each call must carry as its first parameter, \"token:SECRET\" (aria2's)."
        ) { $0.secret = $1 },
        .value(
            "rpc-secret-file", "file",
            help: "Read the secret from FILE's first line instead (ps shows a command line, not a file); FILE "
                + "must be yours alone (mode 0600), and one that does not exist is made with a new random secret."
        ) { $0.secretFile = $1 },
        .flag(
            "rpc-allow-origin-all",
            help: "Serve requests from any web page (Access-Control-Allow-Origin: *) even without a secret; with "
                + "--rpc-secret every page is served and the secret decides, as aria2 does."
        ) { $0.allowOriginAll = $1 },
        .value("rpc-max-request-size", "size", help: "The largest request or WebSocket message (default 2M).") {
            $0.maxRequestSize = try OptionValue.size($1, above: 0)
        },
        .value(
            "rpc-allowed-dir", "dir",
            help: "Clients may save only inside this directory (default: --dir, else the current directory)."
        ) { $0.allowedDirectory = $1 },
        .flag("rpc-secure", help: "Serve HTTPS and WSS (with --rpc-certificate and --rpc-private-key).") {
            $0.secure = $1
        },
        .value("rpc-certificate", "file", help: "The server's certificate chain, PEM, for --rpc-secure.") {
            $0.certificate = $1
        },
        .value("rpc-private-key", "file", help: "The certificate's private key, PEM, for --rpc-secure.") {
            $0.privateKey = $1
        },
    ]

    /// The secret in force: `--rpc-secret`'s, or the one `--rpc-secret-file` holds (made when
    /// the file is not there, said through `report`).
    func resolvedSecret(report: (String) -> Void) throws(SecretFile.Problem) -> String? {
        guard let secretFile else { return secret }
        return try SecretFile.secret(at: secretFile, report: report)
    }

    func validate() throws {
        if secure, certificate == nil || privateKey == nil {
            throw UsageError("--rpc-secure needs --rpc-certificate FILE and --rpc-private-key FILE (PEM)")
        }
        if !secure, certificate != nil || privateKey != nil {
            throw UsageError("--rpc-certificate and --rpc-private-key go with --rpc-secure")
        }
        guard (1024...65535).contains(port) || port == 0 else {
            throw UsageError("--rpc-listen-port must be 1024 to 65535 (0: any free port)")
        }
        if let secret, secret.isEmpty { throw UsageError("--rpc-secret must not be empty") }
        if secret != nil, secretFile != nil {
            throw UsageError("--rpc-secret and --rpc-secret-file both give the secret: give one of them")
        }
        guard maxRequestSize <= 1 << 30 else { throw UsageError("--rpc-max-request-size must be at most 1G") }
    }
}
