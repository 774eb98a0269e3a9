// MARK: - CertificateOptions

/// How TLS servers are trusted.
struct CertificateOptions {
    var caCertificate: String?
    var checkCertificate = true
    var insecure = false

    static let options: [OptionSpec<CertificateOptions>] = [
        .value("ca-certificate", "file", help: "Trust the certificate authorities in this PEM file.") {
            $0.caCertificate = $1
        },
        .value("check-certificate", "bool", help: "Verify TLS certificates (true, the default, or false).") {
            $0.checkCertificate = try OptionValue.bool($1)
        },
        .flag("insecure", help: "Do not verify TLS certificates (as --check-certificate=false; curl's -k).") {
            $0.insecure = $1
        },
    ]
}
