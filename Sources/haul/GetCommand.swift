import ArgumentParser
import Foundation
import HaulCore
import HaulNet

// MARK: - GetCommand

/// `haul get URL…`: downloads without the full-screen UI, printing progress to stderr.
struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Download URLs to files, with progress on stderr (no full-screen UI)."
    )

    @Argument(help: "The http, https, ftp or ftps URLs to download.")
    var urls: [String]

    @Option(name: [.customShort("o"), .customLong("out")], help: "Save to this file (one URL only).")
    var out: String?

    @Option(name: [.customShort("d"), .customLong("dir")], help: "Directory to save into (created if missing).")
    var dir: String = "."

    @Flag(name: .customLong("allow-overwrite"), help: "Overwrite an existing file instead of saving as NAME.1.EXT.")
    var allowOverwrite = false

    @Option(name: .customLong("max-download-limit"), help: "Cap each download's speed, e.g. 500K or 2M (bytes per second).")
    var maxDownloadLimit: String?

    @Option(name: [.customShort("T"), .customLong("timeout")], help: "Seconds to wait for a connection or for data.")
    var timeout: Double = 60

    @Option(name: .customLong("header"), help: "Add a request header, \"Name: value\" (repeatable).")
    var headers: [String] = []

    @Option(name: [.customShort("U"), .customLong("user-agent")], help: "The User-Agent to send.")
    var userAgent: String = Request.defaultUserAgent

    @Option(name: .customLong("ca-certificate"), help: "Trust the certificate authorities in this PEM file.")
    var caCertificate: String?

    @Option(name: .customLong("check-certificate"), help: "Verify TLS certificates (true or false).")
    var checkCertificate: Bool = true

    @Flag(name: [.customShort("q"), .customLong("quiet")], help: "Print nothing but errors.")
    var quiet = false

    // MARK: - Validation

    func validate() throws {
        if out != nil, urls.count > 1 {
            throw ValidationError("-o/--out names one file, so it takes one URL; use -d for several")
        }
        for text in urls {
            let url = URL(string: text)
            if let scheme = url?.scheme?.lowercased(), !["http", "https", "ftp", "ftps"].contains(scheme) {
                throw ValidationError("'\(text)': haul downloads http, https, ftp and ftps URLs, not \(scheme)")
            }
            guard let url, url.scheme != nil, let host = url.host, !host.isEmpty else {
                throw ValidationError("'\(text)' is not a URL (expected e.g. https://example.org/file.iso)")
            }
        }
        for header in headers where !header.contains(":") {
            throw ValidationError("--header '\(header)' needs the form \"Name: value\"")
        }
        if let maxDownloadLimit { _ = try parsedSize(maxDownloadLimit, option: "--max-download-limit") }
        if timeout <= 0 { throw ValidationError("--timeout must be more than 0 seconds") }
        if let caCertificate, !FileManager.default.isReadableFile(atPath: caCertificate) {
            throw ValidationError("--ca-certificate '\(caCertificate)' is not a readable file")
        }
    }

    // MARK: - Running

    func run() throws {
        let directory = URL(fileURLWithPath: dir, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw ValidationError("cannot use directory '\(dir)': \(error.localizedDescription)")
        }
        let reporter = ProgressReporter(quiet: quiet)
        let queue = DispatchQueue(label: "haul.get")
        let downloads = try urls.map { text in
            FileDownload(request: try request(for: text), directory: directory, fixedName: out,
                         allowOverwrite: allowOverwrite, reporter: reporter)
        }
        for download in downloads {
            Connection(request: download.request, delegate: download, queue: queue).start()
        }
        reporter.waitUntilDone(count: downloads.count)
        if downloads.contains(where: { !$0.succeeded }) { throw ExitCode(1) }
    }

    private func request(for text: String) throws -> Request {
        guard let url = URL(string: text) else { throw ValidationError("'\(text)' is not a URL") }
        var request = Request(url: url)
        request.timeoutInterval = timeout
        request.userAgent = userAgent
        request.tls = TLSOptions(verifyPeer: checkCertificate, caFile: caCertificate)
        if let maxDownloadLimit { request.maxReceiveSpeed = try parsedSize(maxDownloadLimit, option: "--max-download-limit") }
        for header in headers {
            let parts = header.split(separator: ":", maxSplits: 1)
            request.headers.add(String(parts[0]).trimmingCharacters(in: .whitespaces),
                                parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : "")
        }
        return request
    }

    private func parsedSize(_ text: String, option: String) throws -> Int64 {
        do {
            return try ByteCount.parse(text)
        } catch {
            throw ValidationError("\(option): \(error)")
        }
    }
}
