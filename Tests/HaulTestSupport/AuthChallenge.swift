import COpenSSL
import Foundation
import Synchronization

// MARK: - AuthChallenge

/// The fault server's `/auth/basic` and `/auth/digest` routes (`?user=U&pass=P`): a 401 with a
/// Basic or Digest (RFC 7616, MD5, qop=auth) challenge until a request carries the right
/// credentials, then 200 with the body `welcome`; `/auth/bearer` always answers 401 with a
/// Bearer challenge, which no user name and password meet. Every Authorization scheme seen is logged.
public enum AuthChallenge {
    /// The Authorization schemes (`Basic`, `Digest`, or `none`) of each `/auth/…` request, in order.
    public static let seen = Mutex<[String]>([])

    static let realm = "haul-tests"
    static let nonce = "dcd98b7102dd2f0e8b11d0f600bfb0c093"

    /// The status, headers and body for a request to `/auth/SCHEME`.
    static func answer(
        scheme: String, query: [String: String], method: String, authorization: String?
    )
        -> (status: Int, headers: [String: String], body: String)
    {
        let user = query["user"] ?? "", password = query["pass"] ?? ""
        seen.withLock { $0.append(authorization.map { String($0.prefix { $0 != " " }) } ?? "none") }
        let granted =
            switch scheme {
            case "basic": authorization == "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
            case "digest":
                authorization.map { digestMatches($0, user: user, password: password, method: method) } ?? false
            default: false
            }
        if granted { return (200, [:], "welcome") }
        let challenge =
            switch scheme {
            case "digest": "Digest realm=\"\(realm)\", qop=\"auth\", algorithm=MD5, nonce=\"\(nonce)\""
            case "bearer": "Bearer realm=\"\(realm)\""
            default: "Basic realm=\"\(realm)\""
            }
        return (401, ["WWW-Authenticate": challenge], "who are you?")
    }

    /// Whether a Digest Authorization header answers the challenge for `user`/`password`.
    private static func digestMatches(_ header: String, user: String, password: String, method: String) -> Bool {
        guard header.hasPrefix("Digest ") else { return false }
        var fields: [String: String] = [:]
        for part in header.dropFirst("Digest ".count).split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            fields[pair[0]] = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        guard fields["username"] == user, fields["realm"] == realm, fields["nonce"] == nonce,
            let uri = fields["uri"], let nc = fields["nc"], let cnonce = fields["cnonce"], fields["qop"] == "auth"
        else {
            return false
        }
        let ha1 = md5("\(user):\(realm):\(password)"), ha2 = md5("\(method):\(uri)")
        return fields["response"] == md5("\(ha1):\(nonce):\(nc):\(cnonce):auth:\(ha2)")
    }

    private static func md5(_ text: String) -> String {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let bytes = Array(text.utf8)
        EVP_Digest(bytes, bytes.count, &output, &length, EVP_md5(), nil)
        return output.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }
}
