import ArgumentParser
import HaulCore

// MARK: - OptionValue

/// Command-line values read once, at parse time, by the rules queue files follow, into the typed
/// value they set: the options then merge as values, never as text again. A value that does not
/// fit is a usage error naming the option.
enum OptionValue {
    /// The transform for download option `name`: its text read as a queue file reads it, the
    /// value at `field` kept.
    static func of<Value: Sendable>(
        _ name: String, _ field: KeyPath<DownloadOptions.Values, Value?> & Sendable
    ) -> @Sendable (String) throws -> Value {
        { text in
            var values = DownloadOptions.Values()
            do {
                try values.set(name, text)
            } catch {
                throw ValidationError("\(error)\(hint(for: name, text))")
            }
            guard let value = values[keyPath: field] else { throw ValidationError("--\(name): '\(text)' sets nothing") }
            return value
        }
    }

    /// The transform for a repeatable `header`: a `Name: value` line, checked.
    static let header: @Sendable (String) throws -> String = { text in
        var values = DownloadOptions.Values()
        do {
            try values.set("header", text)
        } catch {
            throw ValidationError("\(error)")
        }
        return text
    }

    /// The transform for a size that is not a download option (`10M`), above `minimum`.
    static func size(above minimum: Int64 = -1) -> @Sendable (String) throws -> Int64 {
        { text in
            let bytes: Int64
            do {
                bytes = try ByteCount.parse(text)
            } catch {
                throw ValidationError("\(error)")
            }
            guard bytes > minimum else { throw ValidationError("must be more than \(minimum)") }
            return bytes
        }
    }

    /// A bandwidth schedule, or why it is not one.
    static func schedule(_ text: String) throws -> BandwidthSchedule {
        do {
            return try BandwidthSchedule(parsing: text)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// What a curl user meant: curl's `-k` turns certificate checks off; here, as in aria2, it
    /// is a size.
    private static func hint(for name: String, _ text: String) -> String {
        guard name == "min-split-size", text.contains("://") else { return "" }
        return " (-k is --min-split-size here, as in aria2; curl's -k is --check-certificate=false, or --insecure)"
    }
}
