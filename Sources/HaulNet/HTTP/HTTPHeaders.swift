import HaulText

// MARK: - HTTPHeaders

/// An ordered list of HTTP header fields with case-insensitive lookup by name.
///
/// Order and repetition are kept as the server sent them (or as the caller added them), so a
/// header that occurs several times (`Set-Cookie`, `Link`) keeps every value.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
        /// A field of `name` (as sent, in its own case) with `value`.
        ///
        /// - Parameters:
        ///   - name: The field name; compared case-insensitively.
        ///   - value: The field value, without the line end.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public internal(set) var fields: [Field] = []

    /// No fields.
    public init() {}

    /// Makes room for `count` fields.
    mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// The fields in the order written: `["Accept": "*/*", "X-A": "1"]`.
    ///
    /// - Parameter elements: Name and value pairs; a name may repeat.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    // MARK: - Reading

    /// The first value of the field `name` (compared case-insensitively), or nil.
    ///
    /// - Parameter name: A field name, in any case.
    /// - Returns: The value of the first field of that name, or nil when there is none.
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Every value of the field `name`, in order.
    ///
    /// - Parameter name: A field name, in any case.
    /// - Returns: The values of every field of that name (`Set-Cookie` may come many times).
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Whether any field is named `name`.
    ///
    /// - Parameter name: A field name, in any case.
    /// - Returns: True when at least one field has that name.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    // MARK: - Writing

    /// Appends a field, keeping any earlier field of the same name.
    ///
    /// - Parameters:
    ///   - name: The field name, sent as written.
    ///   - value: The field value.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field named `name` with one field holding `value`.
    ///
    /// - Parameters:
    ///   - name: The field name, in any case; the new field is written as given.
    ///   - value: The field value.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field named `name`.
    ///
    /// - Parameter name: A field name, in any case.
    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// Whether a field carries a credential: Authorization, Cookie, or a name that says it holds a
    /// token, key, secret, password or session (`X-Auth-Token`, `X-API-Key`…). Such a field is
    /// never shown or saved unless asked for, and never follows a redirect to another origin.
    ///
    /// - Parameter header: A field's name, or a whole `Name: value` line.
    /// - Returns: True when the name is one of a credential.
    public static func isCredential(_ header: String) -> Bool {
        let name = header.prefix { $0 != ":" }.trimmingCharacters(in: .whitespaces).lowercased()
        return ["authorization", "cookie", "auth", "token", "key", "secret", "passw", "session", "credential"]
            .contains { name.contains($0) }
    }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        // On the bytes in place: field names are ASCII, and every response's lookups go
        // through here. A difference outside ASCII is left to Unicode's lower case.
        let answer = withUTF8Bytes { mine in other.withUTF8Bytes { theirs in String.asciiFoldedEquals(mine, theirs) } }
        return answer ?? (lowercased() == other.lowercased())
    }

    /// Whether two byte runs of the same length are equal in any ASCII case; nil when they
    /// differ at a byte outside ASCII.
    private static func asciiFoldedEquals(
        _ mine: UnsafeBufferPointer<UInt8>, _ theirs: UnsafeBufferPointer<UInt8>
    )
        -> Bool?
    {
        for (index, byte) in mine.enumerated() {
            let other = theirs[index]
            guard byte != other else { continue }
            if byte >= 0x80 || other >= 0x80 { return nil }
            if ASCIIText.folded(byte) != ASCIIText.folded(other) { return false }
        }
        return true
    }
}
