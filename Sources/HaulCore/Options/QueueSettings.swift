// MARK: - QueueSettings

/// The values of the queue's options (`QueueOptionTable`), built-in until set.
public struct QueueSettings: Sendable, Equatable {
    public var maxConcurrentDownloads = BuiltInOptions.maxConcurrentDownloads
    public var maxOverallDownloadLimit = SpeedLimit.none
    public var maxConnectionsPerHost = 0
    public var bandwidthSchedule: BandwidthSchedule?
    /// BitTorrent: the ports the session may listen on, and where.
    public var listenPort = ListenPorts.builtIn
    public var interface: String?
    public var enableDHT = true
    public var maxOverallUploadLimit = SpeedLimit.none

    /// Every option at its built-in value.
    public init() {}

    /// The settings a daemon's `getGlobalOption` reply shows, each read by its row; an option
    /// missing from it, or one its row refuses, keeps its built-in value.
    ///
    /// - Parameter options: The reply's options by name.
    public init(shown options: [String: String]) {
        for option in QueueOptionTable.all {
            guard let text = options[option.name] else { continue }
            try? option.assign(&self, text)
        }
    }

    /// Sets the option `name` from `text`, checked by its row.
    ///
    /// - Parameters:
    ///   - name: A queue option's long name.
    ///   - text: Its value as a person or a client wrote it.
    /// - Throws: `OptionError` naming what is wrong with the value, or that there is no such option.
    public mutating func set(_ name: String, _ text: String) throws(OptionError) {
        guard let option = QueueOptionTable.option(named: name) else { throw OptionError.unknownOption(name) }
        try option.assign(&self, text)
    }

    /// The value of the option `name` as text (aria2's form), nil when there is no such option
    /// or it is unset.
    ///
    /// - Parameter name: A queue option's long name.
    /// - Returns: Its value, such as `5` or `1048576`.
    public func text(of name: String) -> String? {
        QueueOptionTable.option(named: name).flatMap { $0.text(self) }
    }

    /// Each option that has a value, by name, as `getGlobalOption` shows it.
    public var pairs: [(String, String)] {
        QueueOptionTable.all.compactMap { option in option.text(self).map { (option.name, $0) } }
    }
}
