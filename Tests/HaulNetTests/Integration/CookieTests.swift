import Foundation
import HaulTestSupport
import Synchronization
import Testing

@testable import HaulNet

/// Cookies shared by all transfers of an engine, read from and saved to Netscape-format files.
@Suite("Cookies")
struct CookieTests {
    /// Loads `path` of the fault server on `engine` and returns the body as text.
    private func text(_ path: String, engine: ConnectionEngine) async throws -> String {
        let queue = TestQueue()
        let delegate = RecordingDelegate(onQueue: queue.isCurrent)
        Connection(request: try request(path), delegate: delegate, queue: queue.queue, engine: engine).start()
        #expect(await delegate.ended.wait())
        return String(decoding: delegate.body, as: UTF8.self)
    }

    @Test("loaded cookies are sent; cookies set by one response go with the next; the jar is saved 0600")
    func roundTrip() async throws {
        let engine = ConnectionEngine()
        defer { engine.shutdown() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let loaded = directory.appendingPathComponent("in.txt").path
        try "# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tfrom-file\nnot a cookie line\n"
            .write(toFile: loaded, atomically: true, encoding: .utf8)

        #expect(try await text("/headers", engine: engine).contains("Cookie") == false, "off by default")
        #expect(try engine.useCookies(loadingFrom: [loaded]) == 1)
        #expect(try await text("/headers", engine: engine).contains("Cookie: session=from-file"))
        _ = try await text("/cookies?flavour=oat", engine: engine)
        let sent = try await text("/headers", engine: engine)
        #expect(sent.contains("flavour=oat") && sent.contains("session=from-file"), "\(sent)")

        let saved = directory.appendingPathComponent("out.txt").path
        try engine.saveCookies(to: saved)
        let jar = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(jar.contains("\tflavour\toat") && jar.contains("\tsession\tfrom-file"))
        let mode = try FileManager.default.attributesOfItem(atPath: saved)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("saving with cookies off, or into a missing directory, is a clear error")
    func errors() throws {
        let engine = ConnectionEngine()
        defer { engine.shutdown() }
        #expect(throws: CookieError.self) { try engine.saveCookies(to: "/tmp/never-\(UUID())") }
        _ = try engine.useCookies(loadingFrom: [])
        let error = #expect(throws: CookieError.self) { try engine.saveCookies(to: "/nonexistent-\(UUID())/jar") }
        #expect(error?.description.contains("cannot write") == true)
    }

    @Test("a cookie call that reaches the engine just after its shutdown fails instead of waiting forever")
    func afterShutdown() async throws {
        for _ in 0..<20 {
            let engine = ConnectionEngine()
            // Posted back to back, the two usually reach the engine thread in one batch.
            engine.shutdown()
            let answered = Signal()
            let outcome = Mutex<String?>(nil)
            Thread {
                do {
                    _ = try engine.useCookies(loadingFrom: [])
                    outcome.withLock { $0 = "turned on" }
                } catch {
                    outcome.withLock { $0 = "\(error)" }
                }
                answered.fire()
            }.start()
            #expect(await answered.wait(seconds: 5), "the cookie call is still waiting")
            #expect(outcome.withLock { $0 }?.contains("stopped") == true)
        }
    }
}
