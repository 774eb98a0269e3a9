import Foundation
import HaulNet
import HaulTestSupport
import Testing

@testable import HaulCore

/// The one table of download options: every entry reads back what it writes, its built-in value
/// is one it accepts, and each kind refuses what is not one, saying why.
@Suite("Download option table")
struct DownloadOptionTableTests {
    /// A value each option accepts (`OptionSamples`).
    static let samples = OptionSamples.values

    @Test("every option has a sample, a unique name, and reads back what it writes", arguments: DownloadOptionTable.all)
    func roundTrip(_ option: DownloadOption) throws {
        #expect(DownloadOptionTable.all.filter { $0.name == option.name }.count == 1)
        let sample = try #require(Self.samples[option.name], "no sample for \(option.name)")
        var options = DownloadOptions()
        try options.set(option.name, sample)
        let written = options.pairs(includingSecrets: true)
        #expect(written.count == 1 && written.first?.0 == option.name, "\(written)")
        var again = DownloadOptions()
        for (name, value) in written { try again.set(name, value) }
        #expect(again == options, "\(option.name)=\(sample) wrote \(written)")
    }

    @Test(
        "a built-in value is one the option accepts, and what getGlobalOption shows", arguments: DownloadOptionTable.all
    )
    func builtIn(_ option: DownloadOption) throws {
        guard let builtIn = option.builtIn else { return }
        var options = DownloadOptions()
        try options.set(option.name, builtIn)
        #expect(options.pairs(includingSecrets: true).map(\.1) == [builtIn])
        #expect(BuiltInOptions.pairs.contains { $0 == (option.name, builtIn) })
    }

    @Test("secrets are written only when asked for, and a URL's password is shown as ***")
    func secrets() throws {
        var options = DownloadOptions()
        for name in ["http-passwd", "ftp-passwd", "referer", "https-proxy", "header"] {
            try options.set(name, Self.samples[name] ?? "")
        }
        try options.set("header", "Authorization: Bearer t")
        let shown = Dictionary(options.pairs(includingSecrets: false), uniquingKeysWith: { $0 + "|" + $1 })
        #expect(shown["http-passwd"] == nil && shown["ftp-passwd"] == nil)
        #expect(shown["header"] == "X-A: b")
        #expect(shown["referer"]?.contains(":p@") == false && shown["https-proxy"]?.contains(":p@") == false)
        #expect(options.pairs(includingSecrets: true).count == 6)
    }

    static let refused: [(name: String, value: String, says: String)] = [
        ("split", "0", "from 1 to 1024"), ("max-connection-per-server", "65", "from 1 to 64"),
        ("min-split-size", "1K", "below the minimum"), ("max-download-limit", "fast", "fast"),
        ("pause", "yes", "not true or false"), ("out", "../x", "inside the download directory"),
        ("all-proxy", "ftp://h:1", "scheme"), ("header", "no colon", "not a header"),
        ("stream-piece-selector", "geom", "'default' or 'inorder'"), ("gid", "0000000000000000", "16 hex digits"),
        ("user-agent", "a\nb", "control character"), ("file-allocation", "none", "unknown option"),
    ]

    @Test("a value that does not fit is refused, saying why", arguments: refused)
    func refusal(_ example: (name: String, value: String, says: String)) {
        var options = DownloadOptions()
        #expect(throws: OptionError.self) { try options.set(example.name, example.value) }
        do {
            try options.set(example.name, example.value)
        } catch {
            #expect(error.description.contains(example.says), "\(error)")
            #expect(error.isUnknownOption == (example.name == "file-allocation"))
        }
    }

    @Test("a speed of 0 is no limit, the one place that rule lives")
    func speedZero() throws {
        #expect(try SpeedLimit(parsing: "0").cap == nil)
        #expect(try SpeedLimit(parsing: "1M").cap == 1 << 20)
        #expect(SpeedLimit(-5) == .none)
        var options = DownloadOptions()
        try options.set("lowest-speed-limit", "0")
        let url = try #require(URL(string: "http://h/"))
        #expect(QueueConfiguration().request(for: url, options: EffectiveOptions(options)).lowestSpeed == nil)
        let unset = QueueConfiguration().request(for: url, options: EffectiveOptions(DownloadOptions()))
        #expect(unset.lowestSpeed == BuiltInOptions.lowestSpeedLimit.cap)
    }
}
