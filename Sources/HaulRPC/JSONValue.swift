import Foundation

// MARK: - JSONValue

/// A JSON value as a client sent it or a reply carries it. Integers stay integers (a
/// request's `id` is echoed as it came); aria2 sends every other number as a decimal string.
package enum JSONValue: Sendable, Equatable, Encodable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// A number as aria2 writes it: a decimal string.
    package static func number(_ value: some BinaryInteger) -> JSONValue { .string(String(value)) }

    package var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    package var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    package var object: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// An integer given as a number or as a decimal string (clients send either).
    package var integer: Int? {
        switch self {
        case .int(let value): Int(exactly: value)
        case .double(let value): Int(exactly: value)
        case .string(let text): Int(text)
        default: nil
        }
    }

    // MARK: - Text

    /// Parses `data` as one JSON value; nil when it is not JSON or nests deeper than
    /// `JSONParser.maximumDepth`. Linear in the bytes (`JSONParser`).
    package static func parse(_ data: some DataProtocol) -> JSONValue? {
        try? JSONParser.parse(Array(data))
    }

    /// The value as compact JSON text, keys sorted (one value always encodes the same way).
    package var encoded: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A value made of JSON values always encodes; a non-finite double is written as null.
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral
{
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int64) { self = .int(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
