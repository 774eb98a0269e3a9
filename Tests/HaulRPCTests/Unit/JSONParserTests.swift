import Foundation
import Testing

@testable import HaulRPC

// MARK: - JSONParserTests

/// The request reader: JSON as RFC 8259 writes it, nesting bounded, time linear in the text.
@Suite("JSON parser")
struct JSONParserTests {
    @Test(
        "values read as JSON says",
        arguments: [
            ("null", JSONValue.null), ("true", .bool(true)), (" false ", .bool(false)),
            ("42", .int(42)), ("-7", .int(-7)), ("0", .int(0)), ("1.5", .double(1.5)), ("2e3", .double(2000)),
            ("9223372036854775807", .int(.max)), ("9223372036854775808", .double(9_223_372_036_854_775_808)),
            (#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#, .string("a\"b\\c/d\n\té😀")),
            (#""\ud800x""#, .string("\u{FFFD}x")),
            ("[1,[2,{}],[]]", JSONValue.array([1, [2, JSONValue.object([:])], []])),
            (#"{"a":1,"b":{"c":[true]}}"#, JSONValue.object(["a": 1, "b": ["c": [true]]])),
            ("\"日本\"", .string("日本")),
        ])
    func reads(text: String, expected: JSONValue) throws {
        #expect(JSONValue.parse(Data(text.utf8)) == expected)
    }

    @Test(
        "broken text is refused",
        arguments: [
            "", "{", "[1,]", "[1 2]", "{\"a\" 1}", "{a:1}", "01", "1.", "-", "1e", "tru", "nul", "\"a",
            "\"\u{01}\"", "\"\\x\"", "\"\\u12\"", "[1]]", "{\"a\":1,}", "NaN", "1e999",
        ])
    func refuses(text: String) {
        #expect(JSONValue.parse(Data(text.utf8)) == nil, "\(text)")
    }

    @Test("nesting deeper than the bound is refused; at the bound it is read")
    func depth() throws {
        let deepest =
            String(repeating: "[", count: JSONParser.maximumDepth)
            + String(repeating: "]", count: JSONParser.maximumDepth)
        #expect(JSONValue.parse(Data(deepest.utf8)) != nil)
        let deeper = "[" + deepest + "]"
        #expect(throws: JSONParser.Failure.tooDeep) { try JSONParser.parse(Array(deeper.utf8)) }
        let objects = String(repeating: "{\"a\":", count: 40) + "1" + String(repeating: "}", count: 40)
        #expect(throws: JSONParser.Failure.tooDeep) { try JSONParser.parse(Array(objects.utf8)) }
    }

    @Test("the attack's request: 500 brackets deep with 2,000 leaves, and 2 MiB of them, are refused at once")
    func nestedAttack() {
        let leaves = Array(repeating: "1", count: 2000).joined(separator: ",")
        let attack = String(repeating: "[", count: 500) + leaves + String(repeating: "]", count: 500)
        #expect(JSONValue.parse(Data(attack.utf8)) == nil)
        let large = String(repeating: "[", count: 1 << 20) + String(repeating: "]", count: 1 << 20)
        #expect(JSONValue.parse(Data(large.utf8)) == nil)
        // A flat 2 MiB array of small numbers is read: the bound is on depth, not on size.
        let flat = "[" + Array(repeating: "1", count: 1 << 20).joined(separator: ",") + "]"
        #expect(JSONValue.parse(Data(flat.utf8))?.array?.count == 1 << 20)
    }
}
