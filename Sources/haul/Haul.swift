import ArgumentParser
import CMalloc
import Foundation
import HaulCore
import HaulNet

// MARK: - Haul

/// The `haul` command line.
@main
struct Haul: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "haul",
        abstract: "A terminal download manager: a live queue steered from the keyboard, on libcurl.",
        usage: """
            haul [<url> ...] [-i <file>] [-d <dir>] [<options>]
            haul get [<url> ...] [-i <file>] [-d <dir>] [<options>]
            haul daemon [--rpc-listen-port <port>] [--rpc-secret <secret>] [<options>]
            """,
        discussion: """
            haul with no command opens the full-screen queue (haul ui); haul get downloads without \
            it. Both read $XDG_CONFIG_HOME/haul/config.toml, where any option can be set by its long \
            name (max-connection-per-server = 4); the command line wins.

            EXIT STATUS (as aria2c's; haul get exits with the code of the last download that failed):
            \(ErrorCode.table)
            """,
        version: "haul \(Haul.version)\n\(LibcurlVersion.description)",
        subcommands: [UICommand.self, GetCommand.self, DaemonCommand.self],
        defaultSubcommand: UICommand.self
    )

    /// Parses the command line (config.toml's options first) and runs the command. A usage
    /// error prints the failing command's usage and exits 28, aria2's code for a bad option.
    static func main() {
        // First, while haul is one thread (see DescriptorTable).
        DescriptorTable.reserve()
        // A queue file of a million lines is parsed into blocks of tens of megabytes, then let
        // go piece by piece as its downloads are made. By default glibc then serves such blocks
        // from its heap, where freed ones stay in the process among live small ones: some
        // 40 MB of a million-entry run's peak. Mapped on their own, they leave when freed.
        // Above the engine's 1 MiB receive buffers, one a transfer: mapping those would cost
        // two calls and their page faults for every small file.
        _ = haul_map_allocations_from(2 << 20)
        // libcurl allocates a transfer's receive buffer as it starts and frees it as it ends.
        // Freed at the top of the engine thread's heap, glibc gave each back to the system
        // (`madvise`, a TLB flush on every core) and the next transfer faulted it in again:
        // 5 % of the engine thread's time in a run of 1000 small files. Up to 16 MiB (16
        // transfers' buffers) stays in the heap for the next.
        _ = haul_trim_heaps_above(16 << 20)
        // Loading libcurl and its 27 libraries (4 to 6 ms) runs on the other core while this
        // thread parses the command line.
        LibcurlLoader.preload()
        let given = daemonSpelledAsAria2(Array(CommandLine.arguments.dropFirst()))
        if given == ["--help"] || given == ["-h"] || given == ["help"] {
            print(helpFirstUsage)
            return
        }
        do {
            let arguments = try ConfigArguments.commandLine(
                given,
                environment: ProcessEnvironment.variables)
            var command = try parsed(arguments)
            try command.run()
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(ErrorCode.badOption.rawValue)
        }
    }

    /// The command `arguments` ask for. `haul get` is parsed by its own command first: the
    /// root's parse also builds the default command's (`ui`) every option set to ask whether it
    /// takes passthrough arguments, some 3 ms of a run of small files. Anything the shorter way
    /// refuses (help, a bad option) goes the root's way, for the root's usage and messages.
    static func parsed(_ arguments: [String]) throws -> any ParsableCommand {
        if arguments.first == "get", let command = try? GetCommand.parse(Array(arguments.dropFirst())) {
            return command
        }
        return try parseAsRoot(arguments)
    }

    /// aria2's way to start its daemon, `--enable-rpc` (or `--enable-rpc=true`), as `haul daemon`.
    static func daemonSpelledAsAria2(_ arguments: [String]) -> [String] {
        let flags = ["--enable-rpc", "--enable-rpc=true"]
        guard arguments.contains(where: flags.contains) else { return arguments }
        var rest = arguments.filter { !flags.contains($0) }
        if rest.first == "ui" || rest.first == "daemon" { rest.removeFirst() }
        return ["daemon"] + rest
    }

    /// `haul --help` with the usage first (`haul [<url> ...] [-i <file>] [-d <dir>]`), then the
    /// rest of ArgumentParser's text as it comes.
    static var helpFirstUsage: String {
        let sections = helpMessage().components(separatedBy: "\n\n")
        guard let usage = sections.firstIndex(where: { $0.hasPrefix("USAGE:") }) else { return helpMessage() }
        var reordered = sections
        reordered.remove(at: usage)
        return ([sections[usage], "See haul get --help for every option, grouped by task."] + reordered)
            .joined(separator: "\n\n")
    }
}
