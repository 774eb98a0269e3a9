import Foundation

// MARK: - URIText

/// A URI as haul writes it into a file the user did not ask to hold secrets.
enum URIText {
    /// `uri` as written: whole with `includingSecrets`, else without the password of any
    /// `user:password@` part.
    static func shown(_ uri: String, includingSecrets: Bool) -> String {
        guard !includingSecrets, uri.contains("@"), var components = URLComponents(string: uri),
              components.password != nil else { return uri }
        components.password = nil
        return components.string ?? uri
    }
}
