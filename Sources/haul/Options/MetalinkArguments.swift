import ArgumentParser
import HaulCore

// MARK: - MetalinkArguments

/// Metalink files (RFC 5854), named as aria2c names their options.
struct MetalinkArguments: ParsableArguments {
    @Option(
        name: [.customShort("M"), .customLong("metalink-file")],
        help: ArgumentHelp(
            "Download the files a Metalink (.meta4) describes, from its mirrors, checking its hashes "
                + "(repeatable; a .meta4 path or URL given as a URL works too).", valueName: "file"))
    var files: [String] = []

    @Option(
        name: .customLong("follow-metalink"),
        help: ArgumentHelp(
            "Download the files of an answer that is a Metalink (application/metalink4+xml, or saved "
                + "as .meta4; true, the default), or save it as it is (false).", valueName: "bool"),
        transform: OptionValue.of("follow-metalink", \.followMetalink))
    var follow: Bool?

    @Option(
        name: .customLong("metalink-location"),
        help: ArgumentHelp(
            "Prefer a Metalink's mirrors in these countries among those of equal priority, e.g. de,fr.",
            valueName: "codes"))
    var location: String?

    /// The countries of `--metalink-location`, lower-case.
    var locations: [String] {
        (location ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }
}
