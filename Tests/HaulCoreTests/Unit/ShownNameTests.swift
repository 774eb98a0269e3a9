import Testing

@testable import HaulCore

@Suite("Shown names")
struct ShownNameTests {
    @Test("a row's name: the URI's last part before any query, decoded, without a login; else the file's")
    func names() {
        let table: [(uri: String, name: String)] = [
            ("http://127.0.0.1:1/f123", "f123"),
            ("https://example.com/a/b/file.tar.gz?x=1/y", "file.tar.gz"),
            ("http://h/dir/", "dir"),
            ("http://h/a//", "a"),
            ("http://h/a/?q", "a"),
            ("http://h/a#b/c", "c"),
            ("http://h", "h"),
            ("a?b?c", "a"),
            ("?abc", "abc"),
            ("////", "////"),
            ("http://h/caf%C3%A9.txt", "café.txt"),
            ("https://user:secret@h", "h"),
            ("https://user:secret@h/x.iso", "x.iso"),
            ("magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567&dn=Big+Buck%20Bunny", "Big Buck Bunny"),
            (
                "magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567",
                "[METADATA]0123456789abcdef0123456789abcdef01234567"
            ),
        ]
        for row in table {
            #expect(Download(id: "0", uris: [row.uri]).shownName == row.name, "\(row.uri)")
        }
        var named = Download(id: "0", uris: ["http://h/f"])
        named.destination = "/data/saved.bin"
        #expect(named.shownName == "saved.bin")
    }
}
