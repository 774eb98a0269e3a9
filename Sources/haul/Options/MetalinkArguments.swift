import HaulCore

// MARK: - MetalinkArguments

/// Metalink files (RFC 5854), named as aria2c names their options.
struct MetalinkArguments {
    var files: [String] = []
    var location: String?

    static let options: [OptionSpec<MetalinkArguments>] = [
        .value(
            "metalink-file", short: "M", "file", repeatable: true,
            help: "Download the files a Metalink (.meta4) describes, from its mirrors, checking its hashes "
                + "(repeatable; a .meta4 path or URL given as a URL works too)."
        ) { $0.files.append($1) },
        .value(
            "metalink-location", "codes",
            help: "Prefer a Metalink's mirrors in these countries among those of equal priority, e.g. de,fr."
        ) { $0.location = $1 },
    ]

    /// The countries of `--metalink-location`, lower-case.
    var locations: [String] {
        (location ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }
}
