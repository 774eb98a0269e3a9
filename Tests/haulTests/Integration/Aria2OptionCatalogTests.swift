import Foundation
import HaulCore
import Testing

// MARK: - Aria2OptionCatalogTests

/// haul's record of aria2's options (`Aria2OptionCatalog`) against the real thing: what Debian's
/// `aria2c --help=#all` lists.
@Suite(
    "aria2's option catalog against aria2c",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/aria2c") || Aria2pTools.required))
struct Aria2OptionCatalogTests {
    /// The long names `aria2c --help=#all` lists.
    private static func aria2cNames() throws -> Set<String> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/aria2c")
        process.arguments = ["--help=#all"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        var names = Set<String>()
        for line in text.split(separator: "\n") {
            // " -d, --dir=<DIR>" or " --max-concurrent-downloads=<N>"; help text mentions others.
            var rest = line.drop { $0 == " " }
            if rest.first == "-", rest.dropFirst().first != "-" {
                rest = rest.dropFirst(2).drop { $0 == "," || $0 == " " }
            }
            guard line.first == " ", rest.hasPrefix("--") else { continue }
            let name = rest.dropFirst(2).prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            if !name.isEmpty { names.insert(String(name)) }
        }
        return names
    }

    @Test("every option aria2c lists is in the catalog; haul's queue options are global there or set at start")
    func coversAria2c() throws {
        let listed = try Self.aria2cNames()
        #expect(listed.count > 150, "aria2c --help=#all listed \(listed.count) options")
        let missing = listed.subtracting(Aria2OptionCatalog.names)
        #expect(missing.isEmpty, "aria2c has options the catalog lacks: \(missing.sorted())")
        // A queue option is global in aria2, or set when it starts (listen-port, enable-dht).
        for option in QueueOptionTable.all where listed.contains(option.name) {
            let scope = Aria2OptionCatalog.scope(of: option.name)
            #expect(scope?.contains(.global) == true || (scope == [] && !option.changesLive), "\(option.name)")
            #expect(Aria2OptionCatalog.scope(of: option.name)?.contains(.perDownload) == false, "\(option.name)")
        }
    }
}
