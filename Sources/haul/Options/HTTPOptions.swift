import ArgumentParser

// MARK: - HTTPOptions

/// What each request carries: headers, logins and cookies.
struct HTTPOptions: ParsableArguments {
    @Option(
        name: .customLong("header"),
        help: ArgumentHelp("Add a request header, \"Name: value\" (repeatable).", valueName: "line"),
        transform: OptionValue.header)
    var headers: [String] = []

    @Option(
        name: [.customShort("U", allowingJoined: true), .customLong("user-agent")],
        help: ArgumentHelp("The User-Agent to send.", valueName: "agent"),
        transform: OptionValue.of("user-agent", \.userAgent))
    var userAgent: String?

    @Option(
        name: .customLong("referer"), help: ArgumentHelp("The Referer to send.", valueName: "url"),
        transform: OptionValue.of("referer", \.referer))
    var referer: String?

    @Option(
        name: .customLong("http-user"),
        help: ArgumentHelp(
            "User name for HTTP authentication (Basic or Digest, as the server asks).",
            valueName: "user"),
        transform: OptionValue.of("http-user", \.httpUser))
    var httpUser: String?

    @Option(
        name: .customLong("http-passwd"),
        help: ArgumentHelp(
            "Password for HTTP authentication (never shown or saved in a session file).",
            valueName: "password"),
        transform: OptionValue.of("http-passwd", \.httpPasswd))
    var httpPasswd: String?

    @Option(
        name: .customLong("ftp-user"),
        help: ArgumentHelp(
            "User name for FTP and FTPS logins (default: the URL's, a netrc entry, or anonymous).",
            valueName: "user"),
        transform: OptionValue.of("ftp-user", \.ftpUser))
    var ftpUser: String?

    @Option(
        name: .customLong("ftp-passwd"),
        help: ArgumentHelp(
            "Password for FTP and FTPS logins (never shown or saved in a session file).", valueName: "password"),
        transform: OptionValue.of("ftp-passwd", \.ftpPasswd))
    var ftpPasswd: String?

    @Flag(
        name: .customLong("ask-password"),
        help: "Ask for the --http-user password on the terminal, without echo.")
    var askPassword = false

    @Flag(
        name: .customLong("netrc"), inversion: .prefixedNo,
        help: "Take logins for hosts without --http-user from the netrc file (~/.netrc unless --netrc-path).")
    var netrc = true

    @Option(
        name: .customLong("netrc-path"),
        help: ArgumentHelp("The netrc file to read instead of ~/.netrc.", valueName: "file"))
    var netrcPath: String?

    @Option(
        name: .customLong("load-cookies"),
        help: ArgumentHelp(
            "Send the cookies of this Netscape-format file (as curl and wget write it).",
            valueName: "file"))
    var loadCookies: String?

    @Option(
        name: .customLong("save-cookies"),
        help: ArgumentHelp(
            "At the end, write every cookie (loaded and received) to this file, mode 0600.",
            valueName: "file"))
    var saveCookies: String?
}
