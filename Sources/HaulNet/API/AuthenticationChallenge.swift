import Foundation

// MARK: - AuthenticationChallenge

/// A server's demand for credentials: a 401 with `WWW-Authenticate`, or a 407 with
/// `Proxy-Authenticate` from a proxy. The delegate is asked what to do before any response is
/// delivered (docs/connection-contract.md, rule 2).
public struct AuthenticationChallenge: Sendable {
    /// The 401 or 407, with its headers (its body is delivered only if the challenge is
    /// answered with `performDefaultHandling`).
    public let response: Response
    /// The authentication schemes offered, as the server spelled them (`Basic`, `Digest`, …).
    public let schemes: [String]
    /// The realm of the first challenge that names one.
    public let realm: String?
    /// How many credentials were already sent for this challenge and refused.
    public let previousFailureCount: Int
    /// The credentials the request carried for it, if any.
    public let proposedCredential: Credentials?

    /// True for a proxy's 407.
    public var isProxy: Bool { response.statusCode == 407 }

    /// The challenge `response` carries, or nil when it is not a 401 or 407 with a challenge
    /// header.
    init?(response: Response, previousFailureCount: Int, proposedCredential: Credentials?) {
        let header =
            switch response.statusCode {
            case 401: response.headers["WWW-Authenticate"]
            case 407: response.headers["Proxy-Authenticate"]
            default: String?.none
            }
        guard let header, !header.isEmpty else { return nil }
        self.response = response
        schemes = AuthenticationChallenge.schemes(in: header)
        realm = AuthenticationChallenge.realm(in: header)
        self.previousFailureCount = previousFailureCount
        self.proposedCredential = proposedCredential
    }

    /// Whether libcurl can answer it (haul gives libcurl Basic and Digest).
    var offersBasicOrDigest: Bool {
        schemes.contains { ["basic", "digest"].contains($0.lowercased()) }
    }

    // MARK: - Parsing

    /// The scheme names of a challenge header: each comma-separated item (commas inside
    /// quotes do not count) that starts with a token rather than a `name=value` parameter
    /// (`Digest realm="x", qop="auth", Basic realm="y"` gives Digest and Basic).
    static func schemes(in header: String) -> [String] {
        var items: [Substring] = []
        var start = header.startIndex
        var quoted = false
        for index in header.indices {
            switch header[index] {
            case "\"": quoted.toggle()
            case "," where !quoted:
                items.append(header[start..<index])
                start = header.index(after: index)
            default: break
            }
        }
        items.append(header[start...])
        return items.compactMap { item in
            guard let first = item.split(separator: " ", omittingEmptySubsequences: true).first,
                !first.contains("=")
            else { return nil }
            return String(first)
        }
    }

    /// The value of the first `realm="…"` parameter.
    static func realm(in header: String) -> String? {
        guard let start = header.range(of: "realm=\"", options: .caseInsensitive) else { return nil }
        let rest = header[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}

// MARK: - ChallengeDisposition

/// The delegate's answer to an `AuthenticationChallenge`.
public enum ChallengeDisposition: Sendable, Equatable {
    /// Send the request again with these credentials (as Basic or Digest, as the server asks).
    case useCredential(Credentials)
    /// Deliver the 401 or 407 as the final response, with its body.
    case performDefaultHandling
    /// Stop: the load fails with `authenticationCancelled`.
    case cancel
}
