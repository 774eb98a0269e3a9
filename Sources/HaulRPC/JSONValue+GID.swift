import HaulCore

extension JSONValue {
    /// A gid as aria2's clients read it: a string of 16 hex digits.
    static func gid(_ id: GID) -> JSONValue { .string(id.description) }

    /// The gid this value spells, if it is a string of 16 hex digits (a daemon's answer).
    package var asGID: GID? { string.flatMap { GID($0) } }
}
