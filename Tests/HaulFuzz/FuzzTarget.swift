import Foundation
import HaulCore
import HaulNet
import HaulRPC
import HaulTUI

// MARK: - FuzzTarget

/// The parsers that read what others wrote, each with the property a fuzzer checks on every
/// input: no crash, and what the parser gave makes sense (`require` stops the run otherwise).
/// Time and memory are bounded by libFuzzer (`-timeout`, `-rss_limit_mb`).
enum FuzzTarget: String, CaseIterable {
    case queueFile = "queue-file"
    case contentDisposition = "content-disposition"
    case contentRange = "content-range"
    case httpDate = "http-date"
    case netrc
    case cookies
    case theme
    case config
    case multipart
    case rpcRequest = "rpc-request"
    case metalink
    case numbers
    case splitLiveness = "split-liveness"

    /// Runs the target on one input.
    func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        switch self {
        case .queueFile: FuzzTarget.queueFile(bytes)
        case .contentDisposition: FuzzTarget.contentDisposition(text)
        case .contentRange:
            if let range = ContentRange(text) {
                require(
                    range.first <= range.last && range.total.map { $0 > range.last } ?? true,
                    "a range out of order: \(text)")
            }
        case .httpDate:
            _ = HTTPDate.parse(text)
            if let seconds = RetryPolicy.parseRetryAfter(text, now: Date(timeIntervalSince1970: 1_800_000_000)) {
                require(seconds >= 0 && seconds.isFinite, "Retry-After gave \(seconds) for \(text)")
            }
        case .netrc:
            let netrc = Netrc(parsing: text)
            _ = netrc.entry(for: "example.org")
        case .cookies: FuzzTarget.cookies(bytes)
        case .theme: _ = try? Theme.parse(text, file: "fuzz.toml")
        case .config: _ = try? ConfigFile.parse(text, file: "config.toml")
        case .multipart: FuzzTarget.multipart(bytes)
        case .rpcRequest: FuzzTarget.rpcRequest(bytes)
        case .metalink: FuzzTarget.metalink(bytes)
        case .numbers: NumbersFuzz.run(bytes)
        case .splitLiveness: SplitLivenessFuzz.run(bytes)
        }
    }

    // MARK: - Properties

    /// A queue file read, written and read again is the same queue, and no problem message
    /// carries an escape character to the terminal.
    private static func queueFile(_ bytes: [UInt8]) {
        guard let first = try? InputFile.read(bytes, name: "fuzz", origin: .queueFile, limit: 1 << 20) else { return }
        for problem in first.problems {
            require(
                !problem.description.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" },
                "an escape in \(problem)")
        }
        let text = InputFile.render(first.entries, includingSecrets: true)
        guard let second = try? InputFile.read(Array(text.utf8), name: "again", origin: .queueFile) else {
            fail("the written queue does not read back:\n\(text)")
        }
        require(second.entries.map(\.uris) == first.entries.map(\.uris), "URIs changed by a round trip:\n\(text)")
        require(
            second.entries.map(\.options) == first.entries.map(\.options), "options changed by a round trip:\n\(text)")
    }

    /// A name from any Content-Disposition, once sanitized, is one path component inside the
    /// directory, short enough, and shows nothing a terminal would act on.
    private static func contentDisposition(_ header: String) {
        guard let name = ContentDisposition.filename(in: header), let safe = FileNaming.sanitize(name) else { return }
        require(!safe.contains("/") && !safe.hasPrefix(".") && safe != ".." && !safe.isEmpty, "unsafe name \(safe)")
        require(
            !safe.unicodeScalars.contains(where: TextSanitizer.isUnsafe),
            "a control character in \(safe.debugDescription)")
        require(safe.utf8.count <= FileNaming.maximumNameBytes, "a name of \(safe.utf8.count) bytes")
    }

    /// A cookie file libcurl reads is written back, and read again, without a crash.
    private static func cookies(_ bytes: [UInt8]) {
        let directory = FileManager.default.temporaryDirectory.path
        let input = "\(directory)/haul-fuzz-cookies-\(getpid())", output = input + ".out"
        defer {
            unlink(input)
            unlink(output)
        }
        guard FileManager.default.createFile(atPath: input, contents: Data(bytes)) else { return }
        let jar = CookieJar()
        guard (try? jar.turnOn(loading: [input])) != nil else { return }
        try? jar.save(to: output)
        _ = try? CookieJar().turnOn(loading: [output])
    }

    /// A stream cut anywhere parses into parts whose data is never more than what came in;
    /// the parser's memory stays within its header limit plus one read.
    private static func multipart(_ bytes: [UInt8]) {
        guard let step = bytes.first.map({ Int($0) + 1 }),
            var parser = MultipartReplaceParser(contentType: "multipart/x-mixed-replace; boundary=frame")
        else { return }
        var data = 0
        var start = 1
        func drain() {
            while let event = parser.next() {
                if case .data(let chunk) = event { data += chunk.count }
                if case .malformed = event { return }
            }
        }
        while start < bytes.count {
            let end = min(start + step, bytes.count)
            bytes[start..<end].withUnsafeBytes { parser.feed($0) }
            drain()
            start = end
        }
        parser.end()
        drain()
        require(data <= bytes.count, "more data (\(data)) than input (\(bytes.count))")
    }

    /// Whatever a Metalink holds, each file it gives is named inside the download directory with
    /// no control character, each mirror is a URI haul loads, its piece hashes round-trip as an
    /// option, and no problem message carries an escape to the terminal.
    private static func metalink(_ bytes: [UInt8]) {
        guard let result = try? MetalinkParser.parse(Data(bytes), source: "fuzz.meta4") else { return }
        for problem in result.problems {
            require(!problem.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" }, "an escape in \(problem)")
        }
        for file in result.metalink.files {
            var options = DownloadOptions()
            require((try? options.set("out", file.name)) != nil, "a name that leaves the directory: \(file.name)")
            require(!file.mirrors.isEmpty, "a file with no mirror: \(file.name)")
            for mirror in file.mirrors {
                require(QueueEntry.uriProblem(mirror.uri) == nil, "a mirror haul cannot load: \(mirror.uri)")
            }
            if let pieces = file.pieces {
                require(
                    (try? PieceHashes(parsing: pieces.description)) == pieces, "piece hashes that do not round-trip")
            }
        }
        require(
            result.metalink.entries(fromServer: false).count == result.metalink.files.count, "a file without an entry")
        // From a server, every name is one plain file name: no folder, no leading dot.
        for entry in result.metalink.entries(fromServer: true) {
            let name = entry.options.out ?? ""
            require(NameGate.isPlainName(name) && !name.contains("/"), "a server's Metalink named \(name)")
        }
    }

    /// Any request a client sends gets a JSON-RPC reply (or a batch of them) that parses, and no
    /// error message carries an escape character to a client's terminal. The queue admits
    /// nothing, so an added download never goes to the network.
    private static func rpcRequest(_ bytes: [UInt8]) {
        var configuration = DownloadQueue.Configuration()
        configuration.maxConcurrentDownloads = 0
        configuration.directory = FileManager.default.temporaryDirectory.path
        let queue = DownloadQueue(configuration: configuration) { _ in }
        let settings = Aria2Methods.Settings(
            allowedDirectory: AllowedDirectory(configuration.directory), version: "fuzz")
        let endpoint = RPCEndpoint(
            methods: Aria2Methods(queue: queue, settings: settings), secretGuard: SecretGuard(secret: nil))
        let reply = endpoint.reply(to: bytes, from: "fuzz")
        guard let parsed = JSONValue.parse(reply) else { fail("a reply that is not JSON for \(bytes)") }
        let replies = parsed.array ?? [parsed]
        for reply in replies {
            let object = reply.object
            require(object?["jsonrpc"] == "2.0", "a reply without jsonrpc: \(reply)")
            require((object?["result"] == nil) != (object?["error"] == nil), "not one of result and error: \(reply)")
            let message = object?["error"]?.object?["message"]?.string ?? ""
            require(!message.unicodeScalars.contains("\u{1B}"), "an escape in \(message.debugDescription)")
        }
    }

    // MARK: - Checks

    private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        FuzzTarget.require(condition, message())
    }

    static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("haul-fuzz: property broken: \(message)\n".utf8))
        abort()
    }
}
