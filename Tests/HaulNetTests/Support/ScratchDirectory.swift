import Foundation

/// A new empty directory under the temporary directory, named `haul-LABEL-UUID`; the test
/// removes it.
func scratchDirectory(_ label: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("haul-\(label)-\(UUID())").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
