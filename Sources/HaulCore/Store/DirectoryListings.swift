import Foundation

// MARK: - DirectoryListings

/// The names in each directory, read once: whether a path exists, for many paths in few
/// directories, without a call to the file system for each. A value, kept for one pass over a
/// queue file's entries (files made meanwhile are not seen).
struct DirectoryListings {
    private var names: [String: Set<String>] = [:]

    /// Whether anything is named `name` in `directory` (as it was when first listed).
    mutating func contains(_ name: String, in directory: String) -> Bool {
        listing(of: directory).contains(name)
    }

    /// Whether `directory` held nothing (or was not there) when first listed.
    mutating func isEmpty(_ directory: String) -> Bool {
        listing(of: directory).isEmpty
    }

    private mutating func listing(of directory: String) -> Set<String> {
        if let listed = names[directory] { return listed }
        let listed = Set((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
        names[directory] = listed
        return listed
    }
}
