import HaulCore

// MARK: - OptionValue

/// Command-line values read once, as the command line is read, into the typed value they set
/// (a download's options are read by `DownloadOptionTable`'s rules instead). A value that does
/// not fit throws why; the parser names the option.
enum OptionValue {
    /// A value of a type that says nothing more than that the text is not one (`x` for a number).
    struct NotOne: Error, CustomStringConvertible {
        var description: String { "" }
    }

    static func int(_ text: String) throws -> Int {
        guard let value = Int(text) else { throw NotOne() }
        return value
    }

    static func double(_ text: String) throws -> Double {
        guard let value = Double(text), value.isFinite else { throw NotOne() }
        return value
    }

    /// A digest, `TYPE=HEX`.
    static func checksum(_ text: String) throws -> ExpectedChecksum {
        do {
            return try ExpectedChecksum(parsing: text)
        } catch {
            throw UsageError("\(error)")
        }
    }

    /// A size that is not a download option (`10M`), above `minimum`.
    static func size(_ text: String, above minimum: Int64 = -1) throws -> Int64 {
        let bytes: Int64
        do {
            bytes = try ByteCount.parse(text)
        } catch {
            throw UsageError("\(error)")
        }
        guard bytes > minimum else { throw UsageError("must be more than \(minimum)") }
        return bytes
    }
}
