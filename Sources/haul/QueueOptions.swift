import Foundation
import HaulCore
import HaulNet

// MARK: - QueueOptions

/// What to download and how, named as aria2c names it: shared by `haul` (the full-screen UI),
/// `haul get` (headless) and `haul daemon`. The options parse and check themselves and derive the
/// queue's configuration; what starts a run with them (the store, cookies, queue files, hooks,
/// the schedule) is `RunStartup`'s.
struct QueueOptions {
    /// The http, https, ftp or ftps URLs (and SFTP, and Metalinks) to download.
    var urls: [String] = []
    /// The download options the command line sets (`DownloadOptionTable`): every download's
    /// defaults.
    var download = DownloadOptions()
    var basic = BasicOptions()
    var connections = ConnectionOptions()
    var files = FileOptions()
    var http = HTTPOptions()
    var hooks = HookArguments()
    var metalink = MetalinkArguments()
    var torrents = TorrentArguments()

    /// The options by task, as help lists them: each topic's own, then its download options.
    static let groups: [OptionGroup<QueueOptions>] = [
        group(.basic, BasicOptions.options, \.basic),
        group(.connections, ConnectionOptions.options, \.connections),
        group(.retries),
        group(.files, FileOptions.options, \.files),
        group(.http, HTTPOptions.options, \.http),
        group(.proxy),
        group(.tls, CertificateOptions.options, \.download),
        group(.sftp),
        OptionGroup("Hooks", HookArguments.options).lifted(\.hooks),
        group(.metalink, MetalinkArguments.options, \.metalink),
        group(.bittorrent, TorrentArguments.options, \.torrents),
    ]

    /// The help section `topic`: its download options alone.
    private static func group(_ topic: DownloadOption.Topic) -> OptionGroup<QueueOptions> {
        OptionGroup(topic.rawValue, OptionSpec.downloads(topic)).lifted(\.download)
    }

    /// The help section `topic`: `options` (at `path`), then the download options under it.
    private static func group<Part>(
        _ topic: DownloadOption.Topic, _ options: [OptionSpec<Part>],
        _ path: WritableKeyPath<QueueOptions, Part> & Sendable
    ) -> OptionGroup<QueueOptions> {
        OptionGroup(
            topic.rawValue, options.map { $0.lifted(path) } + OptionSpec.downloads(topic).map { $0.lifted(\.download) })
    }

    /// What help says of the URLs.
    static let positional = (name: "url", help: "The http, https, ftp or ftps URLs to download.")

    // MARK: - Validation

    func validate() throws {
        try hooks.validate()
        let single = urls.count == 1 && basic.inputFile == nil && metalink.files.isEmpty && torrents.files.isEmpty
        if basic.out != nil, !single {
            throw UsageError("-o/--out names one file, so it takes exactly one URL and no -i")
        }
        if files.checksum != nil, !single {
            throw UsageError("--checksum checks one file, so it takes exactly one URL and no -i")
        }
        if !connections.mirrors.isEmpty, !single {
            throw UsageError("--mirror names another URL of one file, so it takes exactly one URL and no -i")
        }
        if let out = basic.out, out != QueueOptions.standardOutput {
            guard let (directory, name) = QueueOptions.place(of: out) else {
                throw UsageError("-o '\(out)' names a directory, not a file: give the file's name too")
            }
            var options = DownloadOptions()
            do {
                try options.set("out", name)
                if let directory { try options.set("dir", directory) }
            } catch {
                throw UsageError("-o: \(error)")
            }
        }
        for text in urls + connections.mirrors
        where !Metalink.isLocalMetalink(text) && QueueOptions.localTorrent(text) == nil {
            if let problem = QueueEntry.uriProblem(text) { throw UsageError(problem) }
        }
        _ = try torrents.paths()
        guard basic.maxDownloadResult >= 0 else { throw UsageError("--max-download-result must be 0 or more") }
        if http.askPassword, download.httpUser == nil {
            throw UsageError("--ask-password asks for the password of --http-user: give --http-user too")
        }
        let files = [
            ("--load-cookies", http.loadCookies), ("--netrc-path", http.netrcPath),
            ("--ca-certificate", download.caCertificate), ("--ssh-private-key", download.sshPrivateKey),
            ("--ssh-known-hosts", download.sshKnownHosts),
        ]
        for case let (flag, path?) in files where !FileManager.default.isReadableFile(atPath: path) {
            throw UsageError("\(flag) '\(path)' is not a readable file")
        }
    }

    /// The absolute path of the .torrent file `argument` names here, or nil (`TorrentLink`).
    static func localTorrent(_ argument: String) -> String? {
        TorrentLink.localMetainfo(argument, in: FileManager.default.currentDirectoryPath)
    }

    /// `-o -`: the body goes to stdout.
    static let standardOutput = "-"

    /// The directory and file name of a path the user typed for `-o` (`~` is the home
    /// directory; a bare name goes into --dir), or nil when it names no file.
    static func place(of out: String) -> (directory: String?, name: String)? {
        let path = XDGDirectory.expandingTilde(out)
        guard !path.hasSuffix("/"), let name = path.split(separator: "/").last, name != ".", name != ".." else {
            return nil
        }
        guard path.contains("/") else { return (nil, path) }
        let directory = String(path.dropLast(name.count))
        return (directory.isEmpty ? "/" : directory, String(name))
    }

    func overallLimit() -> Int64? {
        connections.queue.maxOverallDownloadLimit.cap
    }

    /// The longest queue-file text to read (`--max-queue-file-size`, else 256 MiB).
    func queueFileLimit() -> Int64 {
        files.maxQueueFileSize ?? InputFile.defaultLimit
    }

    /// With `--ask-password`, asks for the `--http-user` password on the terminal without echo.
    mutating func askForPassword() throws {
        guard http.askPassword, let user = download.httpUser else { return }
        guard let password = PasswordPrompt.read("Password for \(user): ") else {
            throw UsageError("--ask-password: no terminal to ask on (give --http-passwd or a netrc entry)")
        }
        download.httpPasswd = password
    }

    // MARK: - Making the queue

    /// The queue's configuration from these options; `warn` hears of a netrc file others can read.
    func configuration(warn: (String) -> Void) throws -> DownloadQueue.Configuration {
        var configuration = DownloadQueue.Configuration()
        configuration.maxConcurrentDownloads = connections.queue.maxConcurrentDownloads
        configuration.maxConnectionsPerHost = connections.queue.maxConnectionsPerHost
        if let window = connections.streamWindow { configuration.streamWindow = max(window, 0) }
        configuration.defaults = download
        configuration.directory = basic.dir
        configuration.tls = tlsOptions()
        configuration.metalinkLocations = metalink.locations
        configuration.listenPort = connections.queue.listenPort
        configuration.interface = connections.queue.interface
        configuration.enableDHT = connections.queue.enableDHT
        configuration.maxOverallUploadLimit = connections.queue.maxOverallUploadLimit
        if http.netrc {
            let path = http.netrcPath ?? Netrc.defaultPath
            do {
                configuration.netrc = try Netrc.load(path: path)
                if configuration.netrc != nil, Netrc.isShared(path: path) {
                    warn("warning: \(path) can be read by other users; protect its passwords with chmod 600 \(path)")
                }
            } catch {
                throw UsageError("\(error)")
            }
        }
        return configuration
    }

    /// How HTTPS servers are checked (`--ca-certificate`, `--check-certificate`).
    func tlsOptions() -> TLSOptions {
        TLSOptions(verifyPeer: download.checkCertificate ?? true, caFile: download.caCertificate)
    }

    /// The state directory of the full-screen queue: `--state-dir`, else the default.
    var stateDirectoryPath: String {
        basic.stateDirectory ?? StateDirectory.defaultPath()
    }

    /// The state directory of `haul get` runs: `--state-dir`, else `get/` in the default one. A
    /// `haul get` command remembers its downloads there so that the same command continues
    /// them; they never join the full-screen queue, nor start when it opens, and a `haul get`
    /// can run while the full-screen queue is open.
    var getStateDirectoryPath: String {
        basic.stateDirectory ?? StateDirectory.defaultPath() + "/get"
    }

    /// The queue file the full-screen UI reads behind its first frame: a local regular file
    /// it can read, given alone (no URL, `-o`, `--checksum` or `--mirror` that would apply to a
    /// single entry). Any other is read first, so a missing one is an error before the screen.
    var queueFileReadBehind: String? {
        guard let path = basic.inputFile, path != "-", RemoteQueueFile.url(in: path) == nil, urls.isEmpty,
            metalink.files.isEmpty, torrents.files.isEmpty,
            basic.out == nil, files.checksum == nil, connections.mirrors.isEmpty
        else { return nil }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, access(path, R_OK) == 0 else { return nil }
        return path
    }

    /// Whether the command line names anything to download (URLs, a queue file, Metalinks,
    /// .torrent files).
    var namesDownloads: Bool {
        !urls.isEmpty || basic.inputFile != nil || !metalink.files.isEmpty || !torrents.files.isEmpty
    }

}
