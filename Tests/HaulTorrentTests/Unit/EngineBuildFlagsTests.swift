import Foundation
import HaulTestSupport
import Testing

@Suite("The torrent engine is built with libtorrent's own defines")
struct EngineBuildFlagsTests {
    @Test("Package.swift's defines for HaulTorrentEngine are those pkg-config gives for libtorrent-rasterbar")
    func definesMatchPkgConfig() throws {
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Package.swift")
        let text = try String(contentsOf: package, encoding: .utf8)
        let target = try #require(text.range(of: "name: \"HaulTorrentEngine\",\n"))
        let settings = String(text[target.upperBound...].prefix(1200))
        let end = try #require(settings.range(of: "linkerSettings"))
        let declared = Set(
            settings[..<end.lowerBound].matches(of: /\.define\("([A-Z0-9_]+)"\)/).map { String($0.output.1) })
        let flags = try ToolOutput.run("/usr/bin/pkg-config", ["--cflags", "libtorrent-rasterbar"])
        #expect(flags.status == 0)
        let wanted = Set(
            flags.output.split(separator: " ").filter { $0.hasPrefix("-D") }.map { String($0.dropFirst(2)) })
        #expect(!wanted.isEmpty)
        #expect(declared == wanted)
    }
}
