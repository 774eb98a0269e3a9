import HaulNet

// MARK: - DownloadOption

/// One option a download can have, declared once in `DownloadOptionTable`: its aria2 name, its
/// typed value and where it is kept, haul's value when nothing sets it, how a change applies, and
/// how the command line offers it. `DownloadOptions` sets, merges and writes options through it;
/// the command line, help, the manual and completions, config.toml, queue files, the store and
/// the RPC methods all read it, so adding an option is one entry.
public struct DownloadOption: Sendable {
    /// When a change of the option reaches a download that has started.
    public enum Change: Sendable {
        /// At once, without a new attempt (a speed limit).
        case live
        /// At the download's next attempt: an active download starts again with it, keeping what
        /// it received (as aria2 restarts one).
        case nextAttempt
        /// Only until the download's file is named (`dir`, `out`).
        case untilNamed
        /// Never: the option names the download (`gid`).
        case never
    }

    /// How the command line offers the option.
    public struct CommandLine: Sendable {
        /// The help section it is listed under (`Connections`).
        public let topic: Topic
        public let short: Character?
        /// The value's placeholder in help (`n`, `speed`, `file`).
        public let valueName: String
        /// Every value there is, when there are few, for the shells' completion.
        public let choices: [String]
    }

    /// The help sections of the command line's download options.
    public enum Topic: String, Sendable, CaseIterable {
        case basic = "Basic", connections = "Connections", retries = "Retries", files = "Files", http = "HTTP"
        case proxy = "Proxy", tls = "TLS", sftp = "SFTP", metalink = "Metalink", bittorrent = "BitTorrent"
    }

    /// aria2's name, without `--`.
    public let name: String
    /// What the option does, a sentence or two, for help and the manual.
    public let help: String
    /// haul's value when nothing sets it, as text (shown by help and `getGlobalOption`); nil when
    /// unset has a meaning of its own (`retry-wait`: backoff) or none.
    public let builtIn: String?
    /// The built-in value as help shows it (`20M` rather than bytes), or what happens unset when
    /// that is more than a value (`-x` under automatic splitting).
    public let builtInShown: String?
    public let change: Change
    /// Whether it holds a secret: left out of what is shown or saved unless asked for.
    public let isSecret: Bool
    /// Whether each value adds one (`header`) rather than replacing the last.
    public let isRepeatable: Bool
    /// Whether its value is `true` or `false`.
    public let isBoolean: Bool
    /// How the command line offers it; nil when only queue files, the store and RPC set it, or
    /// the command line has a form of its own (`-o` takes a path, `-d` the run's directory).
    public let commandLine: CommandLine?
    /// The least trusted source that may set it (the owner and every source above it may too).
    public let settableBy: OptionSource
    /// Where aria2 takes the option (`Aria2OptionCatalog.Scope`), nil for one of haul's own.
    public let aria2Scope: Aria2OptionCatalog.Scope?
    /// What it can do that a less trusted source must not be able to, when anything.
    public let risk: Risk?
    /// Why the sources below the owner, down to `settableBy`, may set it all the same, when it has
    /// a `risk` and they may.
    public let trustReason: String?

    /// What an option can do with the user's files, traffic or logins.
    public enum Risk: String, Sendable, CaseIterable {
        case overwritesFiles = "it can replace a file that is there"
        case movesTraffic = "it moves where downloads, and the logins they carry, go"
        case weakensChecks = "it weakens the check of who answers"
        case namesLocalFiles = "it names a file on this machine"
        case namesFolders = "it names the folder files are written in"
    }

    let assign: @Sendable (inout DownloadOptions.Values, String) throws(OptionError) -> Void
    let texts: @Sendable (DownloadOptions.Values, _ includingSecrets: Bool) -> [String]
    let fill: @Sendable (inout DownloadOptions.Values, DownloadOptions.Values) -> Void

    /// An option whose value is kept at `field` (nil when unset), read and written as `kind`.
    static func single<Value>(
        _ name: String, _ field: WritableKeyPath<DownloadOptions.Values, Value?> & Sendable, _ kind: OptionKind<Value>,
        builtIn: Value? = nil, change: Change = .nextAttempt, secret: Bool = false, topic: Topic? = nil,
        short: Character? = nil, valueName: String? = nil, settableBy: OptionSource = .remoteList, risk: Risk? = nil,
        trustReason: String? = nil, shownDefault: String? = nil, aria2: String? = nil, help: String
    ) -> DownloadOption {
        DownloadOption(
            name: name, help: help, builtIn: builtIn.map { kind.format($0, true) },
            builtInShown: shownDefault ?? builtIn.map(kind.readable), change: change, isSecret: secret,
            isRepeatable: false, isBoolean: Value.self == Bool.self,
            commandLine: topic.map {
                CommandLine(topic: $0, short: short, valueName: valueName ?? kind.valueName, choices: kind.choices)
            },
            settableBy: settableBy, aria2Scope: aria2.map(Aria2OptionCatalog.Scope.init(letters:)), risk: risk,
            trustReason: trustReason,
            assign: { values, text throws(OptionError) in values[keyPath: field] = try kind.parse(text) },
            texts: { values, includingSecrets in
                guard let value = values[keyPath: field], includingSecrets || !secret else { return [] }
                return [kind.format(value, includingSecrets)]
            },
            fill: { values, defaults in
                if values[keyPath: field] == nil { values[keyPath: field] = defaults[keyPath: field] }
            })
    }

    /// `header`: each value adds a `Name: value` line, the defaults' lines before a download's;
    /// a line that carries a credential is left out unless asked for.
    static func headers(topic: Topic, aria2: String, help: String) -> DownloadOption {
        DownloadOption(
            name: "header", help: help, builtIn: nil, builtInShown: nil, change: .nextAttempt, isSecret: false,
            isRepeatable: true,
            isBoolean: false, commandLine: CommandLine(topic: topic, short: nil, valueName: "line", choices: []),
            settableBy: .remoteList, aria2Scope: Aria2OptionCatalog.Scope(letters: aria2), risk: nil, trustReason: nil,
            assign: { values, text throws(OptionError) in
                guard DownloadOptions.Values.headerField(text) != nil else {
                    throw OptionError(
                        "'\(TextSanitizer.visible(text))' is not a header: "
                            + "write \"Name: value\" on one line, the name of letters, digits and -")
                }
                values.headers.append(text)
            },
            texts: { values, includingSecrets in
                values.headers.filter { includingSecrets || !HTTPHeaders.isCredential($0) }
            },
            fill: { values, defaults in
                values.headers = defaults.headers.filter { !values.headers.contains($0) } + values.headers
            })
    }

    /// Why `value` for this option is not taken from `source`, or nil when it is: the source
    /// is `settableBy` or above, or the value is the built-in one (which grants nothing).
    ///
    /// - Parameters:
    ///   - value: The option's text as the source gave it.
    ///   - source: Who gave it.
    /// - Returns: A sentence naming the option, the source, what the option can do and who may
    ///   set it; nil when the value is taken.
    public func refusal(of value: String, from source: OptionSource) -> String? {
        guard source > settableBy else { return nil }
        var scratch = DownloadOptions.Values()
        if let builtIn, (try? assign(&scratch, value)) != nil, texts(scratch, true) == [builtIn] { return nil }
        let what = risk.map { ": \($0.rawValue)" } ?? ""
        let shown = TextSanitizer.visible(value.count > 64 ? String(value.prefix(64)) + "…" : value)
        return "\(name)=\(shown) is not taken from \(source)\(what); give it \(settableBy.whereToGive)"
    }
}
