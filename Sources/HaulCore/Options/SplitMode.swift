// MARK: - SplitMode

/// How a download decides how many connections it uses (`split-mode`).
public enum SplitMode: String, Sendable, CaseIterable {
    /// A large file from a server that takes ranges starts on one connection and gets more
    /// while they make it faster (`SplitGrowth`), up to
    /// `BuiltInOptions.autoConnectionsPerServer` a server. Applies while neither `-s` nor `-x` is
    /// given.
    case auto
    /// `-s` and `-x` as given, as aria2 reads them.
    case fixed
}
