import Foundation

extension URL {
    /// The URL as text with any password replaced by `***`, for logs and screens.
    public var redactedString: String {
        guard password != nil, var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else {
            return absoluteString
        }
        components.password = "***"
        return components.string ?? absoluteString
    }
}
