import ArgumentParser

// MARK: - RetryOptions

/// How often and how soon a failed download is tried again.
struct RetryOptions: ParsableArguments {
    @Option(
        name: [.customShort("m", allowingJoined: true), .customLong("max-tries")],
        help: ArgumentHelp(
            "Attempts per download (0: no limit). A failure that cannot heal (404, a refused "
                + "login, a full disk) is not retried.", valueName: "n"),
        transform: OptionValue.of("max-tries", \.maxTries))
    var maxTries: Int = 5

    @Option(
        name: .customLong("retry-wait"),
        help: ArgumentHelp(
            "Seconds between attempts (default: exponential backoff from 1 s).",
            valueName: "seconds"),
        transform: OptionValue.of("retry-wait", \.retryWait))
    var retryWait: Int?
}
