import Foundation
import HaulCore

// MARK: - Aria2Methods: options

/// Options as aria2's clients send them, by aria2's names (`Aria2OptionCatalog`): an option
/// haul implements is set, and a bad value is refused; one aria2 has and haul does not, or one
/// that does not apply where it is given, is accepted and ignored with one log line, as aria2
/// ignores it. So a client that sends back what `getOption` gave (AriaNg's retry), or every
/// option of its settings page, is never refused for a name.
extension Aria2Methods {
    /// A client's options for a new download, at parameter `index`, over the defaults
    /// `changeGlobalOption` gave: `dir` and `out` inside the allowed directory (`dir` defaults to
    /// its root for a network client, to the queue's directory for the user's own); from a client over the network, only the options its source may set
    /// (`DownloadOption.settableBy`), and a download that carries no credential of the owner's
    /// (`DownloadOptions.source`); no gid in use.
    func downloadOptions(_ params: RPCParams, _ index: Int) throws(RPCError) -> DownloadOptions {
        var options = DownloadOptions()
        if !settings.clientIsOwner {
            options.nameRoot = settings.allowedDirectory.root
            options.source = .networkClient
        }
        for (name, value) in try params.options(index) {
            try set(name, value, in: &options, for: "a new download")
        }
        if let gid = options.gid, queue.download(gid) != nil {
            throw RPCError("GID \(gid) is in use by another download; choose another, or none")
        }
        options = options.merged(over: addedDefaults.withLock { $0 })
        // The user's own process (the local socket, whose allowed directory is all of `/`) saves
        // where the queue does, as their command line would.
        if options.dir == nil, !settings.clientIsOwner { options.dir = settings.allowedDirectory.root }
        return options
    }

    /// Sets the option `name` in `options` (for `purpose`, in the log line of an ignored one).
    private func set(
        _ name: String, _ value: String, in options: inout DownloadOptions, for purpose: String
    ) throws(RPCError) {
        if !settings.clientIsOwner,
            let refusal = DownloadOptionTable.option(named: name)?.refusal(of: value, from: .networkClient)
        {
            throw RPCError(refusal)
        }
        switch name {
        case "dir": options.dir = try settings.allowedDirectory.directory(value)
        case "out":
            try settings.allowedDirectory.check(out: value)
            options.out = value
        default:
            do throws(OptionError) {
                try options.set(name, value)
            } catch let error where error.isUnknownOption {
                ignored(name, for: purpose)
            } catch {
                throw RPCError("option '\(RPCError.shown(name))': \(RPCError.shown(error.description))")
            }
        }
    }

    /// Logs, once, that the option `name` a client gave for `purpose` is not applied.
    private func ignored(_ name: String, for purpose: String) {
        settings.notices?.refused("option for \(purpose): \(Aria2OptionCatalog.ignored(RPCError.shown(name)))")
    }

    /// `getOption(gid)`: the download's own options over the defaults new downloads get, by
    /// aria2's names (passwords and secret headers left out); only a download's options, as
    /// aria2 gives them, so that they can be sent back to `addUri`.
    func option(_ params: RPCParams) throws(RPCError) -> JSONValue {
        let download = try download(params)
        var options = globalOptions.withLock { $0 }.filter { Aria2Methods.isDownloadOption($0.key) }
        for (name, value) in download.options.pairs(includingSecrets: false) { options[name] = value }
        options["dir"] = download.directory ?? options["dir"]
        return .object(options.mapValues { .string(TextSanitizer.visible($0)) })
    }

    /// Whether aria2 counts `name` among a download's options (haul's own options are).
    static func isDownloadOption(_ name: String) -> Bool {
        Aria2OptionCatalog.scope(of: name)?.contains(.perDownload) ?? true
    }

    /// `getGlobalOption()`: the queue's own options as they are now (another client, a key in
    /// the UI or a bandwidth schedule may have changed them), over the rest.
    func globalOption() -> JSONValue {
        var options = globalOptions.withLock { $0 }
        let now = queue.settings
        for option in QueueOptionTable.all where option.changesLive {
            options[option.name] = now.text(of: option.name)
        }
        return .object(options.mapValues { .string(TextSanitizer.visible($0)) })
    }

    /// `changeOption(gid, options)`: each option changes as its `DownloadOption.Change` says:
    /// the live ones at once (speed caps, seeding, a torrent's `select-file`, its peers); most at
    /// the next attempt (an active download starts its attempt
    /// again with them, keeping what it received, as aria2 restarts one); `dir` and `out` only
    /// before the file is named; the gid never.
    func changeOption(_ params: RPCParams) throws(RPCError) -> JSONValue {
        let download = try download(params)
        var changed = DownloadOptions()
        var live = DownloadOptions()
        for (name, value) in try params.options(1) {
            switch DownloadOptionTable.option(named: name)?.change {
            case .live:
                try set(name, value, in: &live, for: "download \(download.id)")
                continue
            case .untilNamed where download.destination != nil:
                throw RPCError("option '\(name)' cannot change: the download's file is named already")
            case .never:
                // As aria2 passes over it: the option names the download.
                settings.notices?.refused(
                    "option for download \(download.id): '\(name)' names the download and never changes; ignored")
                continue
            default:
                try set(name, value, in: &changed, for: "download \(download.id)")
            }
        }
        if live != DownloadOptions() { queue.changeLiveOptions(download.id, live) }
        if changed != DownloadOptions() { queue.changeOptions(download.id, changed) }
        return "OK"
    }

    /// `changeGlobalOption(options)`: a queue option (`QueueOptionTable`: the number of downloads
    /// at once, the per-host cap, the overall speed cap) changes at once, checked by its row as
    /// the command line checks it; a download's option (`dir` inside the allowed directory,
    /// `split`, `user-agent`…) is the default of every download added from now on; any other
    /// option aria2 has is kept for `getGlobalOption` and logged as not applying.
    func changeGlobalOption(_ params: RPCParams) throws(RPCError) -> JSONValue {
        for (name, value) in try params.options(0) {
            if let option = QueueOptionTable.option(named: name) {
                if !settings.clientIsOwner, let refusal = option.refusal(from: .networkClient) {
                    throw RPCError(refusal)
                }
                do throws(OptionError) {
                    // `getGlobalOption` reads it back from the queue (`globalOption`).
                    try queue.change(option, to: value)
                } catch {
                    throw RPCError("option '\(name)': \(RPCError.shown(error.description))")
                }
                continue
            }
            switch name {
            case "out", "gid":
                // A download's own, never the daemon's: aria2 passes over them here too.
                ignored(name, for: "the daemon")
                continue
            default:
                var defaults = addedDefaults.withLock { $0 }
                try set(name, value, in: &defaults, for: "the daemon")
                addedDefaults.withLock { $0 = defaults }
            }
            globalOptions.withLock { $0[name] = value }
        }
        return "OK"
    }
}
