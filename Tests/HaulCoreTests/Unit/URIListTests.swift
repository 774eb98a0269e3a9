import Testing

@testable import HaulCore

@Suite("URI lists")
struct URIListTests {
    @Test("none, one kept inline, then many: the same list whichever way it was made")
    func growing() {
        var list = URIList([])
        #expect(list.isEmpty && list.first == nil)
        list.append("http://a.test/f")
        #expect(list == ["http://a.test/f"] && list.count == 1 && list[0] == "http://a.test/f")
        list.append("http://b.test/f")
        list.append("http://c.test/f")
        #expect(list == URIList(["http://a.test/f", "http://b.test/f", "http://c.test/f"]))
        #expect(Array(list) == ["http://a.test/f", "http://b.test/f", "http://c.test/f"])
        #expect(list.joined(separator: "\t") == "http://a.test/f\thttp://b.test/f\thttp://c.test/f")
        #expect(list != ["http://a.test/f"])
    }
}
