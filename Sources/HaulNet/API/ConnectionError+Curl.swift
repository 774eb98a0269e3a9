import CCurl
import Foundation
import HaulText

extension ConnectionError {
    /// The error for a failed libcurl transfer: its CURLcode mapped to a kind, with libcurl's
    /// message (the error buffer when it says more than curl_easy_strerror). A transfer sent
    /// through `proxy` says so, without the proxy's user name and password: libcurl's words
    /// ("Failed to connect to …") name the proxy's address without saying it is the proxy.
    init(curlCode: CURLcode, errorBuffer: String, url: URL?, proxy: String? = nil) {
        let kind: Kind =
            switch curlCode {
            case CURLE_UNSUPPORTED_PROTOCOL: .unsupportedScheme(url?.scheme ?? "")
            case CURLE_URL_MALFORMAT: .badURL
            case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .cannotResolveHost
            case CURLE_COULDNT_CONNECT: .cannotConnect
            case CURLE_OPERATION_TIMEDOUT: .timedOut
            case CURLE_RECV_ERROR where errorBuffer.localizedCaseInsensitiveContains("header"): .badResponse
            case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2_STREAM,
                CURLE_HTTP2:
                .connectionLost
            case CURLE_PEER_FAILED_VERIFICATION where url?.scheme?.lowercased() == "sftp": .sshHostKey
            case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM,
                CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
                .tlsFailure
            // A refused certificate is CURLE_PEER_FAILED_VERIFICATION; this is any other broken
            // handshake (a closed connection, a server that answers in plain HTTP).
            case CURLE_SSL_CONNECT_ERROR: .tlsHandshake
            case CURLE_READ_ERROR, CURLE_ABORTED_BY_CALLBACK: .bodyStream
            case CURLE_REMOTE_FILE_NOT_FOUND: .remoteFileNotFound
            case CURLE_LOGIN_DENIED, CURLE_REMOTE_ACCESS_DENIED: .accessDenied
            // libcurl 7.x refuses a header line over 100 KiB as out of memory; 8.x says "Too large
            // response headers" with a receive error (above).
            case CURLE_OUT_OF_MEMORY, CURLE_WEIRD_SERVER_REPLY: .badResponse
            default: .transport
            }
        let message = errorBuffer.isEmpty ? String(cString: haul_curl_easy_strerror(curlCode)) : errorBuffer
        self.init(
            kind: kind, url: url, curlCode: Int(curlCode.rawValue), curlMessage: message,
            detail: proxy.map { "\(ConnectionError.proxyDetail) \(URIText.withoutUserInfo($0))" })
    }
}
