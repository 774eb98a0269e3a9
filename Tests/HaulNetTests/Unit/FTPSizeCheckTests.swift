import Testing

@testable import HaulNet

// MARK: - FTPSizeCheckTests

/// An FTP server's replies, checked for the size they give before the data comes.
@Suite("FTP size check")
struct FTPSizeCheckTests {
    @Test(
        "the last 213 before the data is a size; a 150 naming another length contradicts it",
        arguments: [
            (["213 20260901100000", "200 Type set", "213 5000", "150 Opening (5000 bytes)"], false),
            (["213 20260901100000.123", "150 Opening"], false),
            (["213 5000", "125 Data connection already open"], false),
            (["200 Type set", "150 Opening"], false),
            (["213 -5", "150 Opening"], true), (["213 5 bytes", "150 x"], true), (["213 ", "150 x"], true),
            (["213 5000", "150 Opening BINARY mode data connection for f.bin (6000 bytes)"], true),
            (["213 123.45", "150 x"], true),
        ])
    func replies(lines: [String], refused: Bool) {
        var check = FTPSizeCheck()
        let problems = lines.compactMap { check.read($0) }
        #expect(problems.isEmpty != refused, "\(problems)")
    }
}
