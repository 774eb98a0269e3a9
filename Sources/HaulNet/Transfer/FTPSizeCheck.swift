// MARK: - FTPSizeCheck

/// What an FTP server's replies say of the file's size, read as they come (libcurl hands the
/// control connection's replies to the header callback). libcurl reads a `SIZE` answer by the
/// digits at its end, so `213 -5` became 5 bytes, and a transfer of 5,000 ended after 5 as a
/// success. The last `213` before the data comes (`150` or `125`) answered `SIZE` (`MDTM`, also
/// `213`, is asked before it): it must be a size, digits only (an `MDTM` time, which may have a
/// fraction, passes too, for a server that does not answer `SIZE`). A `150` that names the
/// length, as many servers' do (`(5000 bytes)`), must agree with it. Pure; engine thread.
struct FTPSizeCheck {
    private var lastNumberReply: String?

    /// Reads one reply line (its line end taken off); returns why the transfer must not go on,
    /// or nil.
    mutating func read(_ line: String) -> String? {
        if line.hasPrefix("213 ") {
            lastNumberReply = String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces)
            return nil
        }
        guard line.hasPrefix("150") || line.hasPrefix("125"), let reply = lastNumberReply else { return nil }
        let parts = reply.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
            parts.count == 1 || parts[0].count == 14
        else {
            return "the server answered SIZE with '\(FTPSizeCheck.printable(reply))', which is not a size"
        }
        if parts.count == 1, let size = Int64(reply), let announced = FTPSizeCheck.announcedLength(in: line),
            announced != size
        {
            return "the server said the file is \(size) bytes (SIZE), then \(announced) bytes (as it began sending)"
        }
        return nil
    }

    /// `text` with every byte outside printable ASCII shown as `?` (a server's words).
    static func printable(_ text: String) -> String {
        String(decoding: text.utf8.prefix(64).map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    /// The `N` of `(N bytes)` in a reply, if there is one.
    static func announcedLength(in line: String) -> Int64? {
        guard let open = line.lastIndex(of: "("), let close = line[open...].firstIndex(of: ")") else { return nil }
        let inside = line[line.index(after: open)..<close].split(separator: " ")
        guard inside.count == 2, inside[1] == "bytes" else { return nil }
        return Int64(inside[0])
    }
}
