// MARK: - HTTPOptions

/// Where logins and cookies come from (the headers and logins a download sends are in
/// `DownloadOptionTable`).
struct HTTPOptions {
    var askPassword = false
    var netrc = true
    var netrcPath: String?
    var loadCookies: String?
    var saveCookies: String?

    static let options: [OptionSpec<HTTPOptions>] = [
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
