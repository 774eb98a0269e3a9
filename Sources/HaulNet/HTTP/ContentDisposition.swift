import Foundation
import HaulText

// MARK: - ContentDisposition

/// Reads the file name out of a Content-Disposition header (RFC 6266), preferring the
/// RFC 5987 `filename*` form over the plain `filename`.
public enum ContentDisposition {
    /// The file name the header carries, decoded but not sanitized; nil when it has none.
    ///
    /// - Parameter header: A `Content-Disposition` value, such as `attachment; filename="a.iso"`.
    /// - Returns: `filename*` (RFC 5987, percent-decoded) when it decodes, else `filename`; nil when
    ///   neither is there or both are empty. Pass it through the name gate before using it as a path.
    public static func filename(in header: String) -> String? {
        let parameters = parameters(in: header)
        if let extended = parameters["filename*"], let decoded = decodeExtendedValue(extended), !decoded.isEmpty {
            return decoded
        }
        if let plain = parameters["filename"], !plain.isEmpty {
            return plain
        }
        return nil
    }

    /// The `name=value` parameters after the first `;` of a header value, names lower-cased,
    /// quoted strings unquoted (with `\` escapes undone).
    ///
    /// - Parameter header: A header value such as `attachment; filename="a b.iso"`.
    /// - Returns: The parameters by lower-cased name; a later duplicate replaces an earlier one.
    public static func parameters(in header: String) -> [String: String] {
        var result: [String: String] = [:]
        var characters = Array(header)[...]
        // Skip the leading token (`attachment`, `text/html`).
        guard let firstSemicolon = characters.firstIndex(of: ";") else { return result }
        characters = characters[(firstSemicolon + 1)...]
        while !characters.isEmpty {
            skipSpaces(&characters)
            let nameCharacters = characters.prefix { $0 != "=" && $0 != ";" }
            characters = characters.dropFirst(nameCharacters.count)
            let name = String(nameCharacters).trimmingCharacters(in: .whitespaces).lowercased()
            var value = ""
            if characters.first == "=" {
                characters = characters.dropFirst()
                skipSpaces(&characters)
                value = characters.first == "\"" ? readQuoted(&characters) : readToken(&characters)
            }
            characters = characters.drop { $0 != ";" }.dropFirst()
            if !name.isEmpty, result[name] == nil { result[name] = value }
        }
        return result
    }

    /// Decodes an RFC 5987 ext-value (`UTF-8'en'%e2%82%ac.txt`); ISO-8859-1 is accepted too.
    static func decodeExtendedValue(_ value: String) -> String? {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let charset = parts[0].lowercased()
        guard let bytes = HexDigits.percentDecoded(parts[2]) else { return nil }
        switch charset {
        case "utf-8": return String(validating: bytes, as: UTF8.self)
        case "iso-8859-1": return String(bytes.map { Character(Unicode.Scalar($0)) })
        default: return nil
        }
    }

    // MARK: - Lexing

    private static func skipSpaces(_ characters: inout ArraySlice<Character>) {
        characters = characters.drop { $0 == " " || $0 == "\t" }
    }

    private static func readToken(_ characters: inout ArraySlice<Character>) -> String {
        let token = characters.prefix { $0 != ";" }
        characters = characters.dropFirst(token.count)
        return String(token).trimmingCharacters(in: .whitespaces)
    }

    private static func readQuoted(_ characters: inout ArraySlice<Character>) -> String {
        characters = characters.dropFirst()
        var value = ""
        while let character = characters.first {
            characters = characters.dropFirst()
            if character == "\"" { break }
            if character == "\\", let escaped = characters.first {
                characters = characters.dropFirst()
                value.append(escaped)
            } else {
                value.append(character)
            }
        }
        return value
    }
}
