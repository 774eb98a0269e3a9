import Foundation
import HaulCore
import HaulNet

// MARK: - Haul

/// The `haul` command line: `haul [ui]`, `haul get` and `haul daemon`, read by haul's own
/// option tables (`Arguments/`), config.toml's options first.
@main
enum Haul {
    static let version = "0.1.0"

    static let abstract = "A terminal download manager: a live queue steered from the keyboard, on libcurl."

    static let usage = [
        "haul [<url> ...] [-i <file>] [-d <dir>] [<options>]",
        "haul get [<url> ...] [-i <file>] [-d <dir>] [<options>]",
        "haul daemon [--rpc-listen-port <port>] [--rpc-secret <secret>] [<options>]",
    ]

    /// What help says of haul, before the exit status.
    static let overview = """
        haul with no command opens the full-screen queue (haul ui); haul get downloads without \
        it. Both read $XDG_CONFIG_HOME/haul/config.toml, where any option can be set by its long \
        name (max-connection-per-server = 4); the command line wins.
        """

    /// How the exit status is chosen, before its table (`ErrorCode.table`).
    static let exitStatusLead = "as aria2c's; haul get exits with the code of the last download that failed"

    static var discussion: String {
        overview + "\n\nEXIT STATUS (\(exitStatusLead)):\n\(ErrorCode.table)"
    }

    /// Reads the command line (config.toml's options first) and runs the command.
    static func main() {
        ProcessTuning.apply()
        let given = daemonSpelledAsAria2(Array(CommandLine.arguments.dropFirst()))
        SecretArguments.hide()
        do {
            if let answer = try answer(to: given) {
                print(answer, terminator: answer.hasSuffix("\n") ? "" : "\n")
                LibcurlLoader.settle()
                return
            }
        } catch {
            fail(error, usage: usage.joined(separator: "\n       "), helpCommand: "haul")
        }
        let named = given.first.flatMap(Subcommand.init(rawValue:))
        let command = named ?? .ui
        let arguments = named == nil ? given : Array(given.dropFirst())
        do {
            let configured = try ConfigArguments.arguments(for: command, environment: ProcessEnvironment.variables) {
                FileHandle.standardError.write(Data("haul: \($0)\n".utf8))
            }
            try command.run(configured + arguments)
            LibcurlLoader.settle()
        } catch {
            fail(error, usage: command.about.usage, helpCommand: "haul \(command.rawValue)")
        }
    }

    /// Exits for `error`: a usage error is said with `usage` and exits 28, aria2's code for a bad
    /// option; an `ExitStatus` exits with its code, its reason said already; any other is said and
    /// exits 1.
    private static func fail(_ error: any Error, usage: String, helpCommand: String) -> Never {
        LibcurlLoader.settle()
        if let status = error as? ExitStatus { exit(status.code) }
        if let error = error as? UsageError {
            FileHandle.standardError.write(
                Data((HelpText.usageError(error, usage: usage, helpCommand: helpCommand) + "\n").utf8))
            exit(ErrorCode.badOption.rawValue)
        }
        FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
        exit(1)
    }

    /// What a request that runs nothing prints: help (`--help`, `-h`, `help [COMMAND]`), the
    /// version, a shell's completion script or the manual page; nil for a command to run.
    static func answer(to arguments: [String]) throws(UsageError) -> String? {
        let options = arguments.prefix { $0 != "--" }
        switch arguments.first {
        case "-h", "--help":
            return rootHelp
        case "help":
            guard let name = arguments.dropFirst().first else { return rootHelp }
            guard let command = Subcommand(rawValue: name) else { throw UsageError("Unknown command '\(name)'") }
            return command.help
        case "--generate-completion-script":
            let shell = arguments.dropFirst().first ?? ""
            guard let script = CompletionScript.script(for: shell) else {
                throw UsageError(
                    "--generate-completion-script takes one of \(CompletionScript.shells.joined(separator: ", "))")
            }
            return script
        case "--generate-manual":
            return ManualPage.roff(version: version, abstract: abstract, discussion: overview, usage: usage)
        case "--generate-aria2-options":
            return Aria2OptionList.markdown
        case "--generate-option-sources":
            return OptionSourceList.markdown
        default:
            break
        }
        if options.contains("--version") { return "haul \(version)\n\(LibcurlVersion.description)" }
        guard options.contains("-h") || options.contains("--help") else { return nil }
        return (arguments.first.flatMap(Subcommand.init(rawValue:)) ?? .ui).help
    }

    /// `haul --help`: the usages first, then the overview and the commands.
    static var rootHelp: String {
        HelpText.root(
            usage: usage, abstract: abstract, discussion: discussion,
            commands: Subcommand.allCases.map { ($0 == .ui ? "ui (default)" : $0.rawValue, $0.about.abstract) })
    }

    /// aria2's way to start its daemon, `--enable-rpc` (or `--enable-rpc=true`), as `haul daemon`.
    static func daemonSpelledAsAria2(_ arguments: [String]) -> [String] {
        let flags = ["--enable-rpc", "--enable-rpc=true"]
        guard arguments.contains(where: flags.contains) else { return arguments }
        var rest = arguments.filter { !flags.contains($0) }
        if rest.first == "ui" || rest.first == "daemon" { rest.removeFirst() }
        return ["daemon"] + rest
    }
}
