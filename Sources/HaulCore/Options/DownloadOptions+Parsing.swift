import Foundation
import HaulNet
import HaulText

// MARK: - DownloadOptions.Values parsing

/// How an option's text becomes its value, each rule saying what was wrong.
extension DownloadOptions.Values {
    /// A file name relative to `dir` that cannot leave it: no absolute path, no `..`, no
    /// control characters (a queue file may come from someone else).
    static func relativeName(_ value: String) throws(OptionError) -> String {
        let name = try nonEmpty(value)
        guard !name.hasPrefix("/"), !name.split(separator: "/").contains(".."),
            !name.unicodeScalars.contains(where: TextSanitizer.isUnsafe)
        else {
            throw OptionError(
                "'\(TextSanitizer.visible(name))' must be a name inside the download directory "
                    + "(no leading /, no .., no control characters)")
        }
        return name
    }

    /// A proxy: `host:port`, or a URL whose scheme libcurl takes for a proxy.
    static func proxy(_ value: String) throws(OptionError) -> String {
        let proxy = try nonEmpty(value)
        let shown = TextSanitizer.visible(URIText.shown(proxy, includingSecrets: false))
        guard let separator = proxy.range(of: "://") else {
            guard URL(string: "http://" + proxy)?.host != nil else {
                throw OptionError("'\(shown)' is not a proxy (host:port or a URL such as socks5h://host:1080)")
            }
            return proxy
        }
        let scheme = proxy[..<separator.lowerBound].lowercased()
        guard Proxies.schemes.contains(scheme), URL(string: proxy)?.host != nil else {
            throw OptionError(
                "'\(shown)' is not a proxy: "
                    + "its scheme must be one of \(Proxies.schemes.sorted().joined(separator: ", "))")
        }
        return proxy
    }

    static func nonEmpty(_ value: String) throws(OptionError) -> String {
        guard !value.isEmpty else { throw OptionError("must not be empty") }
        return value
    }

    static func integer(_ value: String, in range: ClosedRange<Int>) throws(OptionError) -> Int {
        guard let number = Int(value), range.contains(number) else {
            throw OptionError("'\(value)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    static func decimal(_ value: String, in range: ClosedRange<Double>) throws(OptionError) -> Double {
        guard let number = Double(value), number.isFinite, range.contains(number) else {
            throw OptionError("'\(value)' is not a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    static func size(_ value: String, atLeast minimum: Int64) throws(OptionError) -> Int64 {
        let bytes: Int64
        do {
            bytes = try ByteCount.parse(value)
        } catch {
            throw OptionError(error.description)
        }
        guard bytes >= minimum else {
            throw OptionError("'\(value)' is below the minimum of \(ByteCount.format(minimum))")
        }
        return bytes
    }

    static func boolean(_ value: String) throws(OptionError) -> Bool {
        switch value {
        case "true": return true
        case "false": return false
        default: throw OptionError("'\(value)' is not true or false")
        }
    }
}
