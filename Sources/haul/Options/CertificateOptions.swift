import HaulCore

// MARK: - CertificateOptions

/// curl's spelling of `--check-certificate=false` (the TLS options themselves are a download's,
/// in `DownloadOptionTable`).
enum CertificateOptions {
    static let options: [OptionSpec<DownloadOptions>] = [
        .flag("insecure", help: "Do not verify TLS certificates (as --check-certificate=false; curl's -k).") {
            if $1 { $0.checkCertificate = false }
        }
    ]
}
