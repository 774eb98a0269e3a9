import ArgumentParser

// MARK: - RPCOptions

/// How `haul daemon` listens, named as aria2c names it (`--rpc-listen-port`, `--rpc-secret`…).
struct RPCOptions: ParsableArguments {
    @Option(
        name: .customLong("rpc-listen-port"),
        help: ArgumentHelp("The JSON-RPC port (1024 to 65535).", valueName: "port"))
    var port = 6800

    @Flag(
        name: .customLong("rpc-listen-all"),
        help: "Listen on every address, not only 127.0.0.1 (then --rpc-secret is required).")
    var listenAll = false

    @Option(
        name: .customLong("rpc-secret"),
        help: ArgumentHelp(
            "The secret each call must carry as its first parameter, \"token:SECRET\" (aria2's).",
            valueName: "secret"))
    var secret: String?

    @Flag(
        name: .customLong("rpc-allow-origin-all"),
        help: "Serve requests from any web page (Access-Control-Allow-Origin: *); off, a foreign Origin is refused.")
    var allowOriginAll = false

    @Option(
        name: .customLong("rpc-max-request-size"),
        help: ArgumentHelp("The largest request or WebSocket message (2M).", valueName: "size"),
        transform: OptionValue.size(above: 0))
    var maxRequestSize: Int64 = 2 << 20

    @Option(
        name: .customLong("rpc-allowed-dir"),
        help: ArgumentHelp(
            "Clients may save only inside this directory (default: --dir, else the current directory).",
            valueName: "dir"))
    var allowedDirectory: String?

    @Flag(
        name: .customLong("rpc-secure"),
        help: "Serve HTTPS and WSS (with --rpc-certificate and --rpc-private-key).")
    var secure = false

    @Option(
        name: .customLong("rpc-certificate"),
        help: ArgumentHelp("The server's certificate chain, PEM, for --rpc-secure.", valueName: "file"))
    var certificate: String?

    @Option(
        name: .customLong("rpc-private-key"),
        help: ArgumentHelp("The certificate's private key, PEM, for --rpc-secure.", valueName: "file"))
    var privateKey: String?

    func validate() throws {
        if secure, certificate == nil || privateKey == nil {
            throw ValidationError("--rpc-secure needs --rpc-certificate FILE and --rpc-private-key FILE (PEM)")
        }
        if !secure, certificate != nil || privateKey != nil {
            throw ValidationError("--rpc-certificate and --rpc-private-key go with --rpc-secure")
        }
        guard (1024...65535).contains(port) || port == 0 else {
            throw ValidationError("--rpc-listen-port must be 1024 to 65535 (0: any free port)")
        }
        if let secret, secret.isEmpty { throw ValidationError("--rpc-secret must not be empty") }
        guard maxRequestSize <= 1 << 30 else { throw ValidationError("--rpc-max-request-size must be at most 1G") }
    }
}
