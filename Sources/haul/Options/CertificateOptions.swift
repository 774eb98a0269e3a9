import ArgumentParser

// MARK: - CertificateOptions

/// How TLS servers are trusted.
struct CertificateOptions: ParsableArguments {
    @Option(
        name: .customLong("ca-certificate"),
        help: ArgumentHelp("Trust the certificate authorities in this PEM file.", valueName: "file"))
    var caCertificate: String?

    @Option(
        name: .customLong("check-certificate"),
        help: ArgumentHelp("Verify TLS certificates (true or false).", valueName: "bool"))
    var checkCertificate: Bool = true

    @Flag(
        name: .customLong("insecure"),
        help: "Do not verify TLS certificates (as --check-certificate=false; curl's -k).")
    var insecure = false
}
