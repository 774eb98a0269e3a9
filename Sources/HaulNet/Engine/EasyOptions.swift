import CCurl
import Foundation

// MARK: - EasyOptions

/// Typed `curl_easy_setopt` calls on one easy handle that remember the first failure, so a
/// hop's whole configuration is checked once (`check`).
struct EasyOptions {
    let easy: UnsafeMutableRawPointer
    private var firstFailure: (CURLoption, CURLcode)?

    init(easy: UnsafeMutableRawPointer) {
        self.easy = easy
    }

    mutating func set(_ option: CURLoption, _ value: Int) {
        record(option, haul_easy_setopt_long(easy, option, value))
    }

    mutating func set(_ option: CURLoption, offset value: Int64) {
        record(option, haul_easy_setopt_off_t(easy, option, curl_off_t(value)))
    }

    mutating func set(_ option: CURLoption, _ value: String) {
        // libcurl copies string options (since 7.17), so the temporary C string may go.
        record(option, haul_easy_setopt_string(easy, option, value))
    }

    mutating func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) {
        record(option, haul_easy_setopt_pointer(easy, option, value))
    }

    mutating func set(_ option: CURLoption, callback: haul_data_callback) {
        record(option, haul_easy_setopt_data_callback(easy, option, callback))
    }

    mutating func set(seekCallback: haul_seek_callback) {
        record(CURLOPT_SEEKFUNCTION, haul_easy_setopt_seek_callback(easy, seekCallback))
    }

    /// Sets CURLOPT_HTTPHEADER; the caller frees the returned list after the hop.
    mutating func setHeaders(_ lines: [String]) -> UnsafeMutablePointer<curl_slist>? {
        var list: UnsafeMutablePointer<curl_slist>?
        var last: UnsafeMutablePointer<curl_slist>?
        for line in lines where !line.contains("\r") && !line.contains("\n") {
            // Appended after the last node: curl_slist_append walks the list it is given to its
            // end, so handing it the head made n headers cost n² steps (40,000: seconds).
            guard let appended = haul_curl_slist_append(last, line) else { continue }
            if list == nil { list = appended }
            last = last == nil ? appended : last?.pointee.next
        }
        record(CURLOPT_HTTPHEADER, haul_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, list))
        return list
    }

    /// The first option libcurl refused, as its number and libcurl's words, if any.
    var failure: String? {
        firstFailure.map { "\($0.0.rawValue) (\(String(cString: haul_curl_easy_strerror($0.1))))" }
    }

    /// Throws the first failed option, naming it.
    func check(url: URL) throws(ConnectionError) {
        guard let (option, code) = firstFailure else { return }
        if code == CURLE_UNSUPPORTED_PROTOCOL {
            throw ConnectionError(kind: .unsupportedScheme(url.scheme ?? ""), url: url)
        }
        throw ConnectionError(
            kind: .transport, url: url, curlCode: Int(code.rawValue),
            curlMessage: String(cString: haul_curl_easy_strerror(code)),
            detail: "libcurl refused option \(option.rawValue)")
    }

    private mutating func record(_ option: CURLoption, _ code: CURLcode) {
        if code != CURLE_OK, firstFailure == nil { firstFailure = (option, code) }
    }
}
