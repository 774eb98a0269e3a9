import CXML
import Foundation
import HaulNet
import HaulText

// MARK: - MetalinkParser

/// Reads a Metalink 4 document with libxml2's pull reader (`CXML`, loaded on first use), as a
/// hostile one may be written: a document over `Metalink.sizeLimit`, not UTF-8, with a DOCTYPE,
/// an entity declaration or a processing instruction (no entity is ever expanded), or not
/// Metalink 4 is refused; a file whose name would leave the download directory, a URI haul
/// cannot load, or an unknown hash is left out with a problem that names its line.
public final class MetalinkParser {
    /// What could not be read, and where.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// A document and what was left out of it.
    public struct Result: Sendable, Equatable {
        public let metalink: Metalink
        public let problems: [String]
    }

    private static let namespace = "urn:ietf:params:xml:ns:metalink"
    private static let metalink3 = "http://www.metalinker.org/"
    /// The most text one element may hold, and the most files and piece hashes.
    private static let textLimit = 1 << 16
    private static let fileLimit = 100_000
    private static let pieceLimit = 4_000_000
    /// XML's white space, which alone is no document.
    private static let blank: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]

    private let source: String
    private var files: [Metalink.File] = []
    private var problems: [String] = []
    private var failure: String?
    private var sawRoot = false
    private var file: Metalink.File?
    private var fileIsBad = false
    private var text = ""
    private var attributes: [String: String] = [:]
    private var pieces: (algorithm: ExpectedChecksum.Algorithm?, length: Int64?, hashes: [String])?
    private var hashes: [ExpectedChecksum] = []
    private var pieceCount = 0
    /// The line the reader is at, for problems.
    private var line = 0

    private init(source: String) {
        self.source = source
    }

    /// Reads the Metalink in the file at `path` (bounded by `Metalink.sizeLimit`), named `source`
    /// in problems.
    ///
    /// - Parameters:
    ///   - path: The document's path.
    ///   - source: How to name it in messages.
    /// - Returns: The Metalink and the problems found in it (files or mirrors left out).
    /// - Throws: `Failure` when the file cannot be read, is too large or is not a Metalink 4 document.
    public static func parse(contentsOf path: String, source: String) throws(Failure) -> Result {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = String(cString: strerror(errno))
            throw Failure(description: "Metalink '\(TextSanitizer.visible(source))' cannot be read: \(reason)")
        }
        defer { try? handle.close() }
        // One byte past the limit shows a file that is too long without reading all of it.
        return try parse((try? handle.read(upToCount: Metalink.sizeLimit + 1)) ?? Data(), source: source)
    }

    /// Reads `data`, named `source` in problems (a path or a URL).
    ///
    /// - Parameters:
    ///   - data: The document.
    ///   - source: How to name it in messages (a path or a URL).
    /// - Returns: The Metalink and the problems found in it (files or mirrors left out).
    /// - Throws: `Failure` when the data is empty, too large or not a Metalink 4 document.
    public static func parse(_ data: Data, source: String) throws(Failure) -> Result {
        let shown = TextSanitizer.visible(source)
        guard data.contains(where: { !Self.blank.contains($0) }) else {
            throw Failure(description: "\(shown): not a Metalink document (it is empty)")
        }
        guard data.count <= Metalink.sizeLimit else {
            throw Failure(description: "\(shown): a Metalink of more than \(Metalink.sizeLimit >> 20) MiB is refused")
        }
        // A Metalink is UTF-8 (RFC 5854); a name in other bytes would reach Swift's strings.
        guard String(validating: data, as: UTF8.self) != nil else {
            throw Failure(description: "\(shown): a Metalink must be UTF-8 text; refused")
        }
        if data.range(of: Data("<!DOCTYPE".utf8)) != nil || data.range(of: Data("<!ENTITY".utf8)) != nil {
            throw Failure(description: "\(shown): a Metalink may not declare a DOCTYPE or entities; refused")
        }
        // Nor does it hold a processing instruction, but for the XML declaration that may open it.
        let declaration = Data("<?xml ".utf8)
        let text = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        let body = text.starts(with: declaration) ? text.dropFirst(declaration.count) : text
        if body.range(of: Data("<?".utf8)) != nil {
            throw Failure(description: "\(shown): a Metalink may not hold processing instructions; refused")
        }
        let parser = MetalinkParser(source: shown)
        try parser.read(data)
        guard !parser.files.isEmpty else {
            let first = parser.problems.first.map { " (\($0))" } ?? ""
            throw Failure(description: "\(shown): the Metalink names no file haul can download\(first)")
        }
        return Result(metalink: Metalink(files: parser.files), problems: parser.problems)
    }

    /// Reads the document node by node, as elements start and end and text comes; stops at the
    /// first failure.
    private func read(_ data: Data) throws(Failure) {
        var problem = [CChar](repeating: 0, count: 256)
        // The caller bounds `data` by `Metalink.sizeLimit`, far below Int32's range.
        let opened = data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
                let reader = haul_xml_open(base, Int32(bytes.count), &problem, problem.count)
            else { return false }
            defer { haul_xml_close(reader) }
            var status = haul_xml_read(reader)
            while status == 1, failure == nil {
                line = Int(haul_xml_line(reader))
                take(reader)
                status = haul_xml_read(reader)
            }
            if status == -1, failure == nil {
                let reason = haul_xml_error(reader).map { TextSanitizer.visible(String(cString: $0)) } ?? "not XML"
                failure = "\(source):\(haul_xml_parser_line(reader)): not a Metalink document (\(reason))"
            }
            return true
        }
        guard opened else {
            let reason = String(decoding: problem.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw Failure(description: "\(source): \(reason)")
        }
        if let failure { throw Failure(description: failure) }
        guard sawRoot else { throw Failure(description: "\(source): not a Metalink document (no element)") }
    }

    /// The node the reader is on, as an element's start (and end, when it is empty), an end, or
    /// text.
    private func take(_ reader: OpaquePointer) {
        switch Int(haul_xml_node_type(reader)) {
        case HAUL_XML_ELEMENT:
            let name = Self.string(haul_xml_local_name(reader))
            let namespace = haul_xml_namespace(reader).map { String(cString: $0) }
            let empty = haul_xml_is_empty_element(reader) == 1
            var attributes: [String: String] = [:]
            while haul_xml_next_attribute(reader) == 1 {
                attributes[Self.string(haul_xml_local_name(reader))] = Self.string(haul_xml_value(reader))
            }
            startElement(name, namespace: namespace, attributes: attributes)
            if empty, failure == nil { endElement(name, namespace: namespace) }
        case HAUL_XML_END_ELEMENT:
            let namespace = haul_xml_namespace(reader).map { String(cString: $0) }
            endElement(Self.string(haul_xml_local_name(reader)), namespace: namespace)
        case HAUL_XML_TEXT, HAUL_XML_CDATA, HAUL_XML_WHITESPACE, HAUL_XML_SIGNIFICANT_WHITESPACE:
            characters(Self.string(haul_xml_value(reader)))
        case HAUL_XML_ENTITY_REFERENCE, HAUL_XML_DOCUMENT_TYPE:
            fail("a Metalink may not declare entities")
        default:
            break
        }
    }

    private static func string(_ text: UnsafePointer<CChar>?) -> String {
        text.map { String(cString: $0) } ?? ""
    }

    // MARK: - Reporting

    private var here: String { "\(source):\(line)" }

    private func fail(_ message: String) {
        guard failure == nil else { return }
        failure = "\(here): \(message)"
    }

    private func skip(_ message: String) {
        problems.append("\(here): \(message)")
    }

    // MARK: - Elements

    private func startElement(_ name: String, namespace: String?, attributes: [String: String]) {
        guard sawRoot else {
            guard name == "metalink" else { return fail("<\(TextSanitizer.visible(name))> is not a Metalink") }
            guard namespace == Self.namespace else {
                return fail(
                    namespace == Self.metalink3
                        ? "Metalink 3 is not read; haul reads Metalink 4 (RFC 5854, .meta4)"
                        : "a <metalink> outside Metalink 4's namespace \(Self.namespace)")
            }
            sawRoot = true
            return
        }
        text = ""
        self.attributes = attributes
        switch name {
        case "file": startFile(attributes["name"])
        case "pieces":
            let algorithm = attributes["type"].flatMap { try? ExpectedChecksum.algorithm(named: $0) }
            pieces = (algorithm, attributes["length"].flatMap(Int64.init), [])
        default: break
        }
    }

    private func characters(_ string: String) {
        guard text.utf8.count + string.utf8.count <= Self.textLimit else {
            return fail("an element holds more than \(Self.textLimit) bytes of text")
        }
        text += string
    }

    private func endElement(_ name: String, namespace: String?) {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        text = ""
        guard file != nil, namespace == Self.namespace else { return }
        switch name {
        case "file": endFile()
        case "size":
            guard let size = Int64(value).flatMap(FileSize.checked) else {
                return skipFile("<size> '\(shown(value))' is not a size (0 to \(FileSize.largest) bytes)")
            }
            file?.size = size
        case "hash" where pieces != nil:
            pieceCount += 1
            guard pieceCount <= Self.pieceLimit else { return fail("more than \(Self.pieceLimit) piece hashes") }
            pieces?.hashes.append(value)
        case "hash":
            guard let type = attributes["type"], let algorithm = try? ExpectedChecksum.algorithm(named: type) else {
                return skip("<hash type='\(shown(attributes["type"] ?? ""))'> is not a digest haul knows; not used")
            }
            guard let hash = try? ExpectedChecksum(parsing: "\(algorithm.rawValue)=\(value)") else {
                return skipFile("<hash> of \(algorithm.rawValue) is not \(algorithm.hexLength) hex digits")
            }
            hashes.append(hash)
        case "pieces": endPieces()
        case "url": addMirror(value)
        case "metaurl": skip("<metaurl> (a torrent or another Metalink) is not followed")
        default: break
        }
    }

    // MARK: - Pieces

    private func startFile(_ name: String?) {
        guard files.count < Self.fileLimit else { return fail("more than \(Self.fileLimit) files") }
        file = Metalink.File(name: name ?? "", size: nil, hash: nil, pieces: nil, mirrors: [])
        fileIsBad = false
        hashes = []
        var options = DownloadOptions()
        do {
            try options.set("out", name ?? "")
        } catch {
            skipFile("<file name='\(shown(name ?? ""))'>: \(error.description)")
        }
    }

    private func skipFile(_ message: String) {
        guard !fileIsBad else { return }
        fileIsBad = true
        skip("\(message); the file is left out")
    }

    private func endFile() {
        defer { file = nil }
        guard var done = file, !fileIsBad else { return }
        guard !done.mirrors.isEmpty else { return skip("<file name='\(shown(done.name))'> has no URL haul can load") }
        done.hash = ExpectedChecksum.strongest(hashes)
        files.append(done)
    }

    private func endPieces() {
        defer { pieces = nil }
        guard let given = pieces else { return }
        guard let algorithm = given.algorithm, let length = given.length else {
            return skip("<pieces> without a known type and a length; not used")
        }
        do {
            file?.pieces = try PieceHashes(algorithm: algorithm, length: length, hashes: given.hashes)
        } catch {
            skip("<pieces>: \(error.description); not used")
        }
    }

    private func addMirror(_ uri: String) {
        if let problem = QueueEntry.uriProblem(uri) { return skip("<url>: \(problem); not used") }
        let priority = attributes["priority"].flatMap(Int.init).map { min(max($0, 1), 999_999) } ?? 999_999
        let location = attributes["location"].map { $0.lowercased() }.flatMap { $0.count == 2 ? $0 : nil }
        file?.mirrors.append(Metalink.Mirror(uri: uri, priority: priority, location: location))
    }

    private func shown(_ text: String) -> String {
        String(TextSanitizer.visible(text).prefix(200))
    }
}
