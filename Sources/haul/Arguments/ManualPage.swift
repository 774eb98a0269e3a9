import HaulCore
import HaulTUI

// MARK: - ManualPage

/// haul's manual page (`man haul`), in roff, made from the same option tables and texts as help
/// (`haul --generate-manual`, which `make install` runs).
enum ManualPage {
    static func roff(version: String, abstract: String, discussion: String, usage: [String]) -> String {
        var lines = [
            ".TH HAUL 1 \"\" \"haul \(version)\" \"User Commands\"", ".SH NAME", "haul \\- \(escaped(abstract))",
            ".SH SYNOPSIS",
        ]
        lines += usage.flatMap { [escaped($0), ".br"] }
        lines += [".SH DESCRIPTION"] + paragraphs(discussion)
        lines.append(".SH COMMANDS")
        for command in Subcommand.allCases {
            lines += [".TP", ".B \(command.rawValue)", escaped(command.about.abstract)]
            lines += paragraphs(command.about.discussion).map { $0 == ".PP" ? ".IP" : $0 }
        }
        lines.append(".SH OPTIONS")
        lines.append("Options of every command:")
        var shown = Set<String>()
        let shared = Set(QueueOptions.groups.map(\.title))
        for command in Subcommand.allCases {
            for (title, options) in command.infos {
                let fresh = options.filter { !$0.hidden && !shown.contains($0.long) }
                guard !fresh.isEmpty else { continue }
                let heading = shared.contains(title) ? title : "\(title) (haul \(command.rawValue))"
                lines.append(".SS \"\(escaped(heading))\"")
                for option in fresh {
                    lines += [".TP", escaped(option.label), escaped(option.help)]
                    shown.insert(option.long)
                }
            }
        }
        lines.append(".SH KEYS")
        lines.append(escaped("In the full-screen queue (? shows them there too):"))
        for binding in KeyMap.standard.bindings {
            lines += [".TP", ".B \(escaped(binding.keys.map(\.label).joined(separator: ", ")))", escaped(binding.help)]
        }
        lines +=
            [".SH EXAMPLES"] + examples.flatMap { command, meaning in [".TP", escaped(command), escaped(meaning)] }
        lines += [".SH FILES"] + files.flatMap { path, meaning in [".TP", ".I \(escaped(path))", escaped(meaning)] }
        lines += [".SH ENVIRONMENT"] + environment.flatMap { name, meaning in [".TP", ".B \(name)", escaped(meaning)] }
        lines +=
            [".SH EXIT STATUS", escaped(Haul.exitStatusLead.prefix(1).uppercased() + Haul.exitStatusLead.dropFirst())]
            + paragraphs(ErrorCode.table)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Commands a user types, and what each does.
    static let examples: [(String, String)] = [
        (
            "haul https://example.org/big.iso",
            "Open the full-screen queue and download the file into the current directory."
        ),
        (
            "haul get -x 8 -s 8 -k 1M https://example.org/big.iso",
            "Download one file over 8 connections, without the UI."
        ),
        ("haul get -i list.txt -d ~/data -j 16", "Download the URLs of a queue file (aria2's format), 16 at a time."),
        ("haul get -c https://example.org/big.iso", "Continue a file aria2c, curl or wget left unfinished."),
        ("haul get", "Continue what the last haul get left unfinished (even after kill -9)."),
        (
            "haul daemon --rpc-secret s3cret",
            "Serve the queue over aria2's JSON-RPC on 127.0.0.1:6800 (aria2p, AriaNg)."
        ),
        ("haul --connect http://127.0.0.1:6800/jsonrpc --rpc-secret s3cret", "Show a daemon's queue full-screen."),
        (
            "systemctl --user enable --now haul-daemon",
            "Run the daemon as a service, its secret in ~/.config/haul/rpc-secret (made at the first start)."
        ),
    ]

    /// The files haul reads and writes.
    static let files: [(String, String)] = [
        ("$XDG_CONFIG_HOME/haul/config.toml", "Any option by its long name (else ~/.config/haul/config.toml)."),
        ("$XDG_CONFIG_HOME/haul/themes/NAME.toml", "Your own colour themes, chosen with t or --theme NAME."),
        (
            "$XDG_CONFIG_HOME/haul/rpc-secret",
            "The secret of the haul-daemon service (--rpc-secret-file), mode 0600, made at its first start."
        ),
        (
            "$XDG_STATE_HOME/haul/",
            "The queue's store, checkpointed every second, and the socket another haul hands "
                + "downloads to (else ~/.local/state/haul; haul get keeps its own in get/)."
        ),
        ("~/.netrc", "Logins for hosts, read unless --no-netrc (--netrc-path names another)."),
        ("~/.ssh/known_hosts", "The SFTP servers' host keys (--ssh-known-hosts names another)."),
        ("NAME.part", "A file being downloaded, renamed to NAME when it is complete and checked."),
    ]

    /// The environment variables haul reads.
    static let environment: [(String, String)] = [
        ("XDG_CONFIG_HOME, XDG_STATE_HOME", "Where config.toml, the themes and the queue's store are."),
        ("http_proxy, https_proxy, all_proxy, no_proxy", "Proxies, as curl reads them; the proxy options win."),
        ("NO_COLOR", "Set to anything: the full-screen queue uses no colour."),
        ("HOME", "Where ~/.netrc and ~/.ssh/known_hosts are."),
    ]

    /// Lines of text as roff paragraphs: a blank line starts a new one, and each other line is
    /// its own line in the table that ends the exit-status text.
    private static func paragraphs(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
            if line.isEmpty { return [".PP"] }
            return line.hasPrefix(" ") ? [".br", escaped(String(line))] : [escaped(String(line))]
        }
    }

    /// Text roff prints as it is: backslashes and hyphens escaped, no line read as a request.
    static func escaped(_ text: String) -> String {
        let body = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return body.hasPrefix(".") || body.hasPrefix("'") ? "\\&" + body : body
    }
}
