// MARK: - RetryOptions

/// How often and how soon a failed download is tried again.
struct RetryOptions {
    var maxTries = 5
    var retryWait: Int?

    static let options: [OptionSpec<RetryOptions>] = [
        .value(
            "max-tries", short: "m", "n",
            help: "Attempts per download (0: no limit; default 5). A failure that cannot heal (404, a refused "
                + "login, a full disk) is not retried."
        ) { $0.maxTries = try OptionValue.download("max-tries", $1, \.maxTries) },
        .value("retry-wait", "seconds", help: "Seconds between attempts (default: exponential backoff from 1 s).") {
            $0.retryWait = try OptionValue.download("retry-wait", $1, \.retryWait)
        },
    ]
}
