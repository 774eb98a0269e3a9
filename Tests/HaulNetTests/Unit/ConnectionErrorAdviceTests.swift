import Foundation
import Testing

@testable import HaulNet

/// What an error tells the person to do fits what happened: a proxy is named only when the
/// transfer went through one.
@Suite("Connection error advice")
struct ConnectionErrorAdviceTests {
    @Test("a refused connection points at the server, or at the proxy when there was one")
    func cannotConnect() throws {
        let url = try #require(URL(string: "http://127.0.0.1:1/f"))
        let direct = ConnectionError(kind: .cannotConnect, url: url)
        #expect(direct.advice == "check that the server is up and the port is right")
        #expect(!direct.description.contains("proxy"), "\(direct)")
        let proxied = ConnectionError(
            kind: .cannotConnect, url: url, detail: "\(ConnectionError.proxyDetail) http://127.0.0.1:3128")
        #expect(proxied.advice.hasPrefix("check that the proxy is up"), "\(proxied)")
        #expect(proxied.description.contains("(through the proxy http://127.0.0.1:3128)"), "\(proxied)")
    }
}
