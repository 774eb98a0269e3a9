import HaulCore

// MARK: - OptionValue

/// Command-line values read once, as the command line is read, into the typed value they set:
/// download options by the rules queue files follow, so the options then merge as values,
/// never as text again. A value that does not fit throws why; the parser names the option.
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

    /// `true` or `false`, as aria2 spells its booleans.
    static func bool(_ text: String) throws -> Bool {
        switch text.lowercased() {
        case "true": return true
        case "false": return false
        default: throw UsageError("give true or false")
        }
    }

    /// Download option `name`'s value in `text`, read as a queue file reads it, the value at
    /// `field` kept.
    static func download<Value>(
        _ name: String, _ text: String, _ field: KeyPath<DownloadOptions.Values, Value?>
    ) throws -> Value {
        var values = DownloadOptions.Values()
        do {
            try values.set(name, text)
        } catch {
            throw UsageError("\(error)\(hint(for: name, text))")
        }
        guard let value = values[keyPath: field] else { throw UsageError("--\(name): '\(text)' sets nothing") }
        return value
    }

    /// A repeatable `header`: a `Name: value` line, checked.
    static func header(_ text: String) throws -> String {
        var values = DownloadOptions.Values()
        do {
            try values.set("header", text)
        } catch {
            throw UsageError("\(error)")
        }
        return text
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

    /// A bandwidth schedule, or why it is not one.
    static func schedule(_ text: String) throws -> BandwidthSchedule {
        do {
            return try BandwidthSchedule(parsing: text)
        } catch {
            throw UsageError("\(error)")
        }
    }

    /// What a curl user meant: curl's `-k` turns certificate checks off; here, as in aria2, it
    /// is a size.
    private static func hint(for name: String, _ text: String) -> String {
        guard name == "min-split-size", text.contains("://") else { return "" }
        return " (-k is --min-split-size here, as in aria2; curl's -k is --check-certificate=false, or --insecure)"
    }
}
