import Foundation
import HaulTestSupport
import Testing

// MARK: - DebianPackageTests

/// The `.deb` that `make deb` makes (and `make test` before the tests, naming it in `HAUL_DEB`):
/// apt would install it here, dpkg installs it into a root of its own, `haul get` runs from there
/// with the Swift toolchain out of sight, and dpkg removes it whole.
@Suite(
    "the Debian package", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["HAUL_DEB"] != nil || Aria2pTools.required))
struct DebianPackageTests {
    /// `command` run by /bin/sh, its stderr with its stdout.
    private static func sh(_ command: String) throws -> (status: Int32, output: String) {
        try ToolOutput.run("/bin/sh", ["-c", command + " 2>&1"])
    }

    /// `text` quoted for /bin/sh.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    @Test("dpkg installs it into a clean root; haul get runs from there without Swift; dpkg removes it whole")
    func installRunRemove() async throws {
        let deb = try #require(ProcessInfo.processInfo.environment["HAUL_DEB"], "make test makes the .deb first")
        // What it needs is Debian's own, each installed here: apt would find every one.
        let depends = try Self.sh("dpkg-deb -f \(Self.quoted(deb)) Depends").output
        #expect(!depends.lowercased().contains("swift") && depends.contains("libcurl4"), "\(depends)")
        for group in depends.split(separator: ",") {
            let names = group.split(separator: "|").compactMap { $0.split(separator: " ").first.map(String.init) }
            let installed = try names.contains { name in
                try Self.sh("dpkg-query -W -f='${Status}' \(name)").output.contains("install ok installed")
            }
            #expect(installed, "\(group) is not installed here")
        }
        let simulated = try Self.sh("apt-get install --simulate \(Self.quoted(deb))")
        #expect(simulated.status == 0 && simulated.output.contains("Inst haul"), "\(simulated.output)")
        let directory = try HaulProcess.scratch()
        defer { HaulProcess.cleanUp(directory) }
        let root = directory.appendingPathComponent("root").path
        let database = root + "/var/lib/dpkg"
        try FileManager.default.createDirectory(atPath: database + "/info", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: database + "/updates", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: database + "/status", contents: Data()))
        // The root has no packages of its own: its dependencies are the machine's, checked above.
        let dpkg = "dpkg --root=\(Self.quoted(root)) --log=/dev/null --force-depends"
        let installed = try Self.sh("\(dpkg) -i \(Self.quoted(deb))")
        #expect(installed.status == 0, "\(installed.output)")
        for file in [
            "usr/bin/haul", "usr/lib/haul/libHaulTorrentEngine.so", "usr/share/haul/themes/dracula.toml",
            "usr/share/man/man1/haul.1.gz",
            "usr/share/bash-completion/completions/haul", "usr/lib/systemd/user/haul-daemon.service",
        ] {
            #expect(FileManager.default.fileExists(atPath: root + "/" + file), "\(file)")
        }
        let unit = try String(contentsOfFile: root + "/usr/lib/systemd/user/haul-daemon.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/bin/haul daemon") && unit.contains("--rpc-secret-file"), "\(unit)")

        // haul get from the root, the toolchain's directory covered by an empty one.
        let haul = root + "/usr/bin/haul"
        let links = try Self.sh("ldd \(Self.quoted(haul))").output
        #expect(!links.contains("libswift") && !links.contains("libFoundation"), "\(links)")
        let server = try FaultServer.shared()
        let out = directory.appendingPathComponent("out").path
        let get = "\(Self.quoted(haul)) get -q -d \(Self.quoted(out)) \(server.url("/bytes/5000").absoluteString)"
        let covered = ["/opt/swift", "/usr/share/swift"].filter { FileManager.default.fileExists(atPath: $0) }
        let hide = covered.map { "mount -t tmpfs none \($0) && " }.joined()
        var ran = try Self.sh("unshare -m sh -c \(Self.quoted(hide + "XDG_STATE_HOME=\(directory.path)-state " + get))")
        if ran.status != 0, ran.output.contains("unshare") {
            // No mount namespace here: the links above are what shows it needs no toolchain.
            ran = try Self.sh("XDG_STATE_HOME=\(directory.path)-state " + get)
        }
        #expect(ran.status == 0, "\(ran.output)")
        let saved = try Data(contentsOf: URL(fileURLWithPath: out + "/5000"))
        #expect(saved.count == 5000 && TestPattern.matches(saved))
        // The BitTorrent engine loads from usr/lib/haul, without the toolchain: libtorrent reads
        // (and refuses) a .torrent that is not one, rather than haul saying BitTorrent is missing.
        #expect(FileManager.default.fileExists(atPath: root + "/usr/lib/haul/libHaulTorrentEngine.so"))
        let bad = directory.appendingPathComponent("bad.torrent").path
        #expect(FileManager.default.createFile(atPath: bad, contents: Data("d4:infoi1ee".utf8)))
        let torrent = "\(Self.quoted(haul)) get -q -d \(Self.quoted(out)) \(Self.quoted(bad))"
        var refused = try Self.sh(
            "unshare -m sh -c \(Self.quoted(hide + "XDG_STATE_HOME=\(directory.path)-state " + torrent))")
        if refused.output.contains("unshare") {
            refused = try Self.sh("XDG_STATE_HOME=\(directory.path)-state " + torrent)
        }
        #expect(refused.status == 26 && refused.output.contains("not a usable .torrent"), "\(refused.output)")

        let removed = try Self.sh("\(dpkg) -r haul")
        #expect(removed.status == 0, "\(removed.output)")
        let left = try Self.sh("find \(Self.quoted(root)) -type f -not -path '*/var/lib/dpkg/*'").output
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
