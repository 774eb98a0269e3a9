import Foundation
import Testing

@testable import HaulCore

@Suite("netrc files")
struct NetrcTests {
    @Test("machines, the default entry, quotes, comments and macros")
    func parsing() {
        let netrc = Netrc(
            parsing: """
                # logins
                machine Files.Example.org login ann password s3cret
                machine files.example.org login second password ignored
                machine quoted.example login "two words" password "p\\"w d"   # a comment
                macdef init
                machine macro.example login nobody password nothing

                machine after.example
                  login bob
                  password hunter2
                machine nologin.example password x
                default login anonymous password guest@
                """)
        #expect(netrc.entry(for: "files.example.org") == Netrc.Entry(login: "ann", password: "s3cret"))
        #expect(netrc.entry(for: "FILES.example.ORG")?.login == "ann")
        #expect(netrc.entry(for: "quoted.example") == Netrc.Entry(login: "two words", password: "p\"w d"))
        #expect(netrc.machines["macro.example"] == nil, "a macro's body is not entries")
        #expect(netrc.entry(for: "after.example") == Netrc.Entry(login: "bob", password: "hunter2"))
        #expect(netrc.machines["nologin.example"] == nil)
        #expect(netrc.entry(for: "elsewhere.example") == Netrc.Entry(login: "anonymous", password: "guest@"))
    }

    @Test("a missing file is no netrc; a shared one is noticed")
    func files() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("netrc-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("netrc").path
        #expect(try Netrc.load(path: path) == nil)
        try "machine h login u password p".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o644)
        #expect(try Netrc.load(path: path)?.entry(for: "h")?.login == "u")
        #expect(Netrc.isShared(path: path))
        chmod(path, 0o600)
        #expect(!Netrc.isShared(path: path))
    }
}
