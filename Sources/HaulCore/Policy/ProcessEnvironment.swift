import Foundation

// MARK: - ProcessEnvironment

/// The environment haul was started with, read once. `ProcessInfo.processInfo.environment`
/// makes a new dictionary of every variable each time it is asked, and a start asks several
/// times: for the config file, the state directory, the cache. haul never changes its own
/// environment.
public enum ProcessEnvironment {
    /// Every variable of the environment, by name. **Threading:** any thread.
    public static let variables: [String: String] = ProcessInfo.processInfo.environment
}
