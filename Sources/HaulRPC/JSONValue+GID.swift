import HaulCore

extension JSONValue {
    /// A gid as aria2's clients read it: a string of 16 hex digits.
    static func gid(_ id: GID) -> JSONValue { .string(id.description) }
}
