// MARK: - HTTPOptions

/// What each request carries: headers, logins and cookies.
struct HTTPOptions {
    var headers: [String] = []
    var userAgent: String?
    var referer: String?
    var httpUser: String?
    var httpPasswd: String?
    var ftpUser: String?
    var ftpPasswd: String?
    var askPassword = false
    var netrc = true
    var netrcPath: String?
    var loadCookies: String?
    var saveCookies: String?

    static let options: [OptionSpec<HTTPOptions>] = [
        .value("header", "line", repeatable: true, help: "Add a request header, \"Name: value\" (repeatable).") {
            $0.headers.append(try OptionValue.header($1))
        },
        .value("user-agent", short: "U", "agent", help: "The User-Agent to send.") {
            $0.userAgent = try OptionValue.download("user-agent", $1, \.userAgent)
        },
        .value("referer", "url", help: "The Referer to send.") {
            $0.referer = try OptionValue.download("referer", $1, \.referer)
        },
        .value("http-user", "user", help: "User name for HTTP authentication (Basic or Digest, as the server asks).") {
            $0.httpUser = try OptionValue.download("http-user", $1, \.httpUser)
        },
        .value(
            "http-passwd", "password",
            help: "Password for HTTP authentication (never shown or saved in a session file)."
        ) { $0.httpPasswd = try OptionValue.download("http-passwd", $1, \.httpPasswd) },
        .value(
            "ftp-user", "user",
            help: "User name for FTP and FTPS logins (default: the URL's, a netrc entry, or anonymous)."
        ) { $0.ftpUser = try OptionValue.download("ftp-user", $1, \.ftpUser) },
        .value(
            "ftp-passwd", "password", help: "Password for FTP and FTPS logins (never shown or saved in a session file)."
        ) { $0.ftpPasswd = try OptionValue.download("ftp-passwd", $1, \.ftpPasswd) },
        .flag("ask-password", help: "Ask for the --http-user password on the terminal, without echo.") {
            $0.askPassword = $1
        },
        .flag(
            "netrc", inversion: true,
            help: "Take logins for hosts without --http-user from the netrc file (~/.netrc unless --netrc-path; "
                + "on by default)."
        ) { $0.netrc = $1 },
        .value("netrc-path", "file", help: "The netrc file to read instead of ~/.netrc.") { $0.netrcPath = $1 },
        .value(
            "load-cookies", "file", help: "Send the cookies of this Netscape-format file (as curl and wget write it)."
        ) {
            $0.loadCookies = $1
        },
        .value(
            "save-cookies", "file",
            help: "At the end, write every cookie (loaded and received) to this file, mode 0600."
        ) { $0.saveCookies = $1 },
    ]
}
