import Foundation
import HaulRPC
import Testing

@testable import HaulRPC

/// The daemon's gates, as tables: the secret, the origin and host, and where a client may save.
@Suite("RPC security")
struct RPCGuardTests {
    @Test(
        "secrets compare equal only when every byte matches",
        arguments: [
            ("s3cret", "s3cret", true), ("s3cret", "s3creT", false), ("s3cret", "s3cre", false),
            ("s3cret", "s3crett", false), ("", "s3cret", false),
            // A guess of the secret plus 256 bytes: the length alone must tell them apart.
            ("s3cret" + String(repeating: "x", count: 256), "s3cret", false),
        ])
    func constantTimeEquality(given: String, secret: String, equal: Bool) {
        #expect(SecretGuard.equal(Array(given.utf8), Array(secret.utf8)) == equal)
    }

    @Test("a peer that keeps guessing has its wrong replies held back longer and longer; the right secret never")
    func guessersSlowedDown() {
        let guardian = SecretGuard(
            secret: "right", allowedFailures: 2, firstPause: .seconds(1), longestPause: .seconds(3))
        #expect(guardian.check("wrong", from: "127.0.0.1") == .wrongSecret(hold: .zero))
        #expect(guardian.check(nil, from: "127.0.0.1") == .wrongSecret(hold: .zero))
        #expect(guardian.check("wrong", from: "127.0.0.1") == .wrongSecret(hold: .seconds(1)))
        // The guesser shares the owner's address: the right secret is answered at once.
        #expect(guardian.check("right", from: "127.0.0.1") == .allowed)
        #expect(guardian.check("wrong", from: "127.0.0.1") == .wrongSecret(hold: .seconds(2)))
        #expect(guardian.check("wrong", from: "127.0.0.1") == .wrongSecret(hold: .seconds(3)))
        #expect(guardian.check("wrong", from: "127.0.0.1") == .wrongSecret(hold: .seconds(3)))
        #expect(guardian.check("right", from: "127.0.0.1") == .allowed)
        #expect(guardian.check("wrong", from: "10.0.0.9") == .wrongSecret(hold: .zero))
    }

    @Test("with no secret set, every call is allowed, a token or not")
    func noSecret() {
        let guardian = SecretGuard(secret: nil)
        #expect(!guardian.requiresSecret)
        #expect(guardian.check(nil, from: "a") == .allowed)
        #expect(guardian.check("anything", from: "a") == .allowed)
    }

    @Test(
        "origin policy on loopback: what a web page could send is refused",
        arguments: [
            // host, origin, Sec-Fetch-Site, refused
            ("127.0.0.1:6800", nil, nil, false),
            ("localhost:6800", "http://localhost:6800", nil, false),
            ("[::1]:6800", nil, nil, false),
            ("127.0.0.1:6800", "http://127.0.0.1:6800", "same-origin", false),
            ("127.0.0.1:6800", "https://evil.example", nil, true),
            ("127.0.0.1:6800", "null", nil, true),
            ("127.0.0.1:6800", nil, "cross-site", true),
            ("127.0.0.1:6800", nil, "none", false),
            // DNS rebinding: the page's own name now resolves to 127.0.0.1.
            ("evil.example:6800", "http://evil.example:6800", nil, true),
            ("127.0.0.1.evil.example", nil, nil, true),
        ] as [(String?, String?, String?, Bool)])
    func loopbackOrigins(host: String?, origin: String?, fetchSite: String?, refused: Bool) {
        let policy = OriginPolicy(allowOriginAll: false, loopbackOnly: true, secretRequired: false)
        #expect((policy.refusal(host: host, origin: origin, fetchSite: fetchSite) != nil) == refused)
    }

    @Test("--rpc-allow-origin-all serves any origin; --rpc-listen-all any host name")
    func relaxedOrigins() {
        let all = OriginPolicy(allowOriginAll: true, loopbackOnly: true, secretRequired: false)
        #expect(all.refusal(host: "127.0.0.1:6800", origin: "https://ariang.example", fetchSite: "cross-site") == nil)
        #expect(all.refusal(host: "nas.local:6800", origin: nil, fetchSite: nil) != nil)
        let listening = OriginPolicy(allowOriginAll: false, loopbackOnly: false, secretRequired: false)
        #expect(listening.refusal(host: "nas.local:6800", origin: "http://nas.local:6800", fetchSite: nil) == nil)
        #expect(listening.refusal(host: "nas.local:6800", origin: "http://other.local", fetchSite: nil) != nil)
    }

    @Test(
        "with a secret, the secret decides: any Origin is served (AriaNg's file sends 'null'), the Host is checked",
        arguments: [
            // host, origin, Sec-Fetch-Site, refused
            ("127.0.0.1:6800", "null", "cross-site", false),
            ("127.0.0.1:6800", "https://ariang.example", "cross-site", false),
            ("localhost:6800", "http://127.0.0.1:8080", "same-site", false),
            ("evil.example:6800", "http://evil.example:6800", nil, true),
            ("127.0.0.1.evil.example", "null", nil, true),
        ] as [(String?, String?, String?, Bool)])
    func secretServesAnyOrigin(host: String?, origin: String?, fetchSite: String?, refused: Bool) {
        let policy = OriginPolicy(allowOriginAll: false, loopbackOnly: true, secretRequired: true)
        #expect(policy.servesAnyOrigin)
        #expect((policy.refusal(host: host, origin: origin, fetchSite: fetchSite) != nil) == refused)
    }

    @Test("a client's dir stays inside the allowed directory, links followed")
    func allowedDirectories() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rpc-allowed-\(UUID())").path
        try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/escape", withDestinationPath: "/etc")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let allowed = AllowedDirectory(root)
        #expect(try allowed.directory("sub") == root + "/sub")
        #expect(try allowed.directory(root + "/new/deeper") == root + "/new/deeper")
        #expect(try allowed.directory("sub/../other") == root + "/other")
        for outside in ["/etc", "../", "sub/../../x", "escape", "escape/cron.d", root + "-sibling"] {
            #expect(throws: RPCError.self, "\(outside)") { try allowed.directory(outside) }
        }
    }

    @Test(
        "a client's out is a plain relative name",
        arguments: [
            ("file.iso", true), ("sub/file.iso", true), ("/etc/passwd", false), ("../x", false), ("a/../../x", false),
            (".hidden", false), ("bad\u{1B}[2Jname", false), ("", false),
        ])
    func outNames(out: String, allowed: Bool) {
        let directory = AllowedDirectory("/srv/downloads")
        #expect(((try? directory.check(out: out)) != nil) == allowed)
    }
}
