import Foundation
import HaulCore
import Testing

@testable import HaulTUI
@testable import haul

/// haul's own command line, as tables: arguments in, the options they set (or the usage error)
/// out.
@Suite("Command-line arguments")
struct ArgumentScannerTests {
    /// A command line and what `haul get` reads from it.
    struct Case: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let expect: @Sendable (QueueOptions) -> Bool
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["-x4", "-j2", "-m1", "http://a/"]) {
            $0.download.maxConnectionPerServer == 4 && $0.connections.maxConcurrentDownloads == 2
                && $0.download.maxTries == 1 && $0.urls == ["http://a/"]
        },
        Case(arguments: ["-x", "4", "--split", "3", "--min-split-size=1M"]) {
            $0.download.maxConnectionPerServer == 4 && $0.download.split == 3
                && $0.download.minSplitSize == 1 << 20
        },
        Case(arguments: ["-cq"]) { $0.download.continueExisting == true && $0.basic.quiet && !$0.basic.verbose },
        Case(arguments: ["-qd", "out dir", "http://a/"]) { $0.basic.quiet && $0.basic.dir == "out dir" },
        Case(arguments: ["-ddir"]) { $0.basic.dir == "dir" },
        Case(arguments: ["--no-netrc"]) { !$0.http.netrc },
        Case(arguments: ["--netrc=false", "--netrc"]) { $0.http.netrc },
        Case(arguments: ["--quiet=true", "--dry-run=FALSE"]) { $0.basic.quiet && $0.download.dryRun == false },
        Case(arguments: ["--header", "A: b", "--header=C: d"]) { $0.download.headers == ["A: b", "C: d"] },
        Case(arguments: ["-d", "a", "--dir", "b"]) { $0.basic.dir == "b" },
        Case(arguments: ["http://a/", "-q", "http://b/"]) { $0.urls == ["http://a/", "http://b/"] && $0.basic.quiet },
        Case(arguments: ["--", "-x", "--dir"]) { $0.urls == ["-x", "--dir"] && $0.basic.dir == "." },
        Case(arguments: ["-o", "-", "-"]) { $0.basic.out == "-" && $0.urls == ["-"] },
        Case(arguments: ["--check-certificate", "false", "--auto-file-renaming=true"]) {
            $0.download.checkCertificate == false && $0.download.autoFileRenaming == true
        },
        Case(arguments: ["-M", "a.meta4", "--metalink-file=b.meta4"]) { $0.metalink.files == ["a.meta4", "b.meta4"] },
        Case(arguments: []) {
            $0.basic.dir == "." && $0.connections.maxConcurrentDownloads == 5 && $0.download == DownloadOptions()
                && $0.http.netrc && $0.tlsOptions().verifyPeer && $0.urls.isEmpty
        },
    ]

    @Test("haul get reads", arguments: cases)
    func reads(_ example: Case) throws {
        let command = try GetCommand.parse(example.arguments)
        #expect(example.expect(command.options))
    }

    static let refused: [(arguments: [String], message: String)] = [
        (["--bogus"], "Unknown option '--bogus'"),
        (["--dri-run"], "Unknown option '--dri-run'. Did you mean '--dry-run'?"),
        (["-Z"], "Unknown option '-Z'"),
        (["-cZ"], "Unknown option '-Z'"),
        (["-d"], "Missing value for '-d <dir>'"),
        (["--dir"], "Missing value for '--dir <dir>'"),
        (["--quiet=x"], "'--quiet' is a flag: give it alone, or =true or =false, not 'x'"),
        (["--no-quiet"], "Unknown option '--no-quiet'"),
        (
            ["-j", "x"],
            "The value 'x' is invalid for '-j, --max-concurrent-downloads <n>': 'x' is not a whole number from 1 to 1000"
        ),
        (
            ["--check-certificate", "maybe"],
            "The value 'maybe' is invalid for '--check-certificate <bool>': 'maybe' is not true or false"
        ),
        (["--theme", "dracula"], "Unknown option '--theme'"),
        (["--rpc-listen-all"], "Unknown option '--rpc-listen-all'"),
    ]

    @Test("haul get refuses, naming the argument", arguments: refused)
    func refuses(_ arguments: [String], _ message: String) {
        #expect(throws: UsageError(message)) { try GetCommand.parse(arguments) }
    }

    @Test("each command takes its own options: --theme for the UI, --rpc-listen-all=true for the daemon")
    func ownOptions() throws {
        let ui = try UICommand.parse(["--theme", "dracula", "--headless", "-j3"])
        #expect(ui.theme == "dracula" && ui.headless && ui.options.connections.maxConcurrentDownloads == 3)
        let daemon = try DaemonCommand.parse(["--rpc-listen-all=true", "--rpc-listen-port", "7000"])
        #expect(daemon.rpc.listenAll && daemon.rpc.port == 7000)
    }

    @Test("config.toml: each setting as --name=value for the command that takes it; a bad one named by its line")
    func configSettings() throws {
        let config = ConfigFile(settings: [
            .init(name: "max-tries", values: ["2"], line: 1), .init(name: "quiet", values: ["true"], line: 2),
            .init(name: "netrc", values: ["false"], line: 3), .init(name: "header", values: ["A: b", "C: d"], line: 4),
            .init(name: "headless", values: ["true"], line: 5),
            .init(name: "rpc-listen-all", values: ["true"], line: 6), .init(name: "rpc-secret", values: ["s"], line: 7),
        ])
        let get = try ConfigArguments.arguments(from: config, path: "c.toml", command: .get)
        #expect(get == ["--max-tries=2", "--quiet=true", "--netrc=false", "--header=A: b", "--header=C: d"])
        let ui = try ConfigArguments.arguments(from: config, path: "c.toml", command: .ui)
        #expect(ui.contains("--headless=true") && !ui.contains("--rpc-listen-all=true"))
        // The UI takes --rpc-secret only with --connect: the daemon's secret is left to the daemon.
        #expect(!ui.contains("--rpc-secret=s"))
        let daemon = try ConfigArguments.arguments(from: config, path: "c.toml", command: .daemon)
        #expect(daemon.contains("--rpc-secret=s") && daemon.contains("--rpc-listen-all=true"))
        let bad = ConfigFile(settings: [.init(name: "max-tries", values: ["x"], line: 7)])
        #expect(
            throws: UsageError(
                "c.toml:7: max-tries: The value 'x' is invalid for '-m, --max-tries <n>': "
                    + "'x' is not a whole number from 0 to 2147483647")
        ) {
            try ConfigArguments.arguments(from: bad, path: "c.toml", command: .get)
        }
        // aria2.conf's lines haul does not implement are warned about and left out, as a queue file's.
        let aria2 = ConfigFile(settings: [
            .init(name: "file-allocation", values: ["falloc"], line: 9),
            .init(name: "enable-rpc", values: ["true"], line: 10),
            .init(name: "max-tries", values: ["3"], line: 11),
        ])
        var warnings: [String] = []
        let taken = try ConfigArguments.arguments(from: aria2, path: "c.toml", command: .get) { warnings.append($0) }
        #expect(taken == ["--max-tries=3"])
        #expect(warnings.count == 2 && warnings[0].hasPrefix("c.toml:9: warning: aria2's option 'file-allocation'"))
        let unknown = ConfigFile(settings: [.init(name: "bogus", values: ["1"], line: 8)])
        #expect(throws: UsageError("c.toml:8: bogus: not an option of haul (see haul get --help)")) {
            try ConfigArguments.arguments(from: unknown, path: "c.toml", command: .daemon)
        }
    }

    @Test("help lines wrap at 80 columns, a long label on a line of its own, a short line kept as it is")
    func helpRows() {
        #expect(
            HelpText.row("-q, --quiet", "Print nothing but errors.")
                == "  -q, --quiet             Print nothing but errors.")
        let long = HelpText.row("--max-download-result <n>", String(repeating: "word ", count: 20))
        let lines = long.split(separator: "\n")
        #expect(lines.first == "  --max-download-result <n>" && lines.count == 3 && lines.allSatisfy { $0.count < 80 })
        #expect(HelpText.wrap("   0  every download completed", width: 79) == ["   0  every download completed"])
    }

    @Test("the completion scripts name every visible option; the manual page escapes roff's hyphens")
    func generated() throws {
        for shell in CompletionScript.shells {
            let script = try #require(CompletionScript.script(for: shell))
            #expect(script.contains("max-concurrent-downloads") && script.contains("rpc-listen-port"), "\(shell)")
            #expect(!script.contains("checkpoint-interval"), "\(shell)")
        }
        #expect(CompletionScript.script(for: "tcsh") == nil)
        // bash completes as a user types: haul get --max-con<TAB>.
        let words = try Self.bashCompletes("haul get --max-con", word: 2)
        #expect(
            words.split(whereSeparator: \.isWhitespace).sorted() == [
                "--max-concurrent-downloads", "--max-connection-per-server", "--max-connections-per-host",
            ])
        // An option with few values completes them.
        #expect(try Self.bashCompletes("haul get --check-certificate ''", word: 3) == "true false\n")
        #expect(CompletionScript.script(for: "zsh")?.contains("order:(default inorder)") == true)
        #expect(CompletionScript.script(for: "fish")?.contains("-l theme -r -a 'default") == true)
        let manual = ManualPage.roff(version: "1", abstract: "a", discussion: "d", usage: ["haul"])
        for section in ["KEYS", "EXAMPLES", "FILES", "ENVIRONMENT", "EXIT STATUS"] {
            #expect(manual.contains(".SH \(section)\n"), "\(section)")
        }
        #expect(manual.contains("retry every failed download") && manual.contains("NO_COLOR"))
        #expect(manual.contains("\\-j, \\-\\-max\\-concurrent\\-downloads <n>"))
        #expect(ManualPage.escaped(".x") == "\\&.x")
    }

    /// What bash's completion (`haul --generate-completion-script bash`) offers for the word at
    /// index `word` of the command line `words`, as bash prints `COMPREPLY`.
    static func bashCompletes(_ words: String, word: Int) throws -> String {
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        let script = try #require(CompletionScript.script(for: "bash"))
        bash.arguments = [
            "-c", script + "\nCOMP_WORDS=(\(words)); COMP_CWORD=\(word); _haul; echo \"${COMPREPLY[*]}\"",
        ]
        let output = Pipe()
        bash.standardOutput = output
        try bash.run()
        bash.waitUntilExit()
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
}
