// MARK: - OptionError

/// Why an option's value is not accepted, in words a person can act on.
public struct OptionError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    /// The option's name is not one haul knows (rather than its value being wrong).
    public let isUnknownOption: Bool

    /// A value refused for `description`'s reason.
    ///
    /// - Parameter description: What is wrong and how to put it right, as a sentence's end: the
    ///   caller puts the option's name or the file's line before it.
    public init(_ description: String) {
        self.description = description
        isUnknownOption = false
    }

    private init(unknown name: String) {
        description = "unknown option '\(name)'"
        isUnknownOption = true
    }

    /// The option `name` is not one haul knows.
    static func unknownOption(_ name: String) -> OptionError {
        OptionError(unknown: name)
    }
}
