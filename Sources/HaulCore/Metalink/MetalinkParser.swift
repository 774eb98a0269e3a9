import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

// MARK: - MetalinkParser

/// Reads a Metalink 4 document with Foundation's `XMLParser` (libxml2), as a hostile one may be
/// written: a document over `Metalink.sizeLimit`, not UTF-8, with a DOCTYPE or an entity
/// declaration (no entity is ever expanded), or not Metalink 4 is refused; a file whose name would leave the
/// download directory, a URI haul cannot load, or an unknown hash is left out with a problem
/// that names its line.
public final class MetalinkParser: NSObject, XMLParserDelegate {
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
    private weak var parser: XMLParser?

    private init(source: String) {
        self.source = source
    }

    /// Reads the Metalink in the file at `path` (bounded by `Metalink.sizeLimit`), named `source`
    /// in problems.
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
    public static func parse(_ data: Data, source: String) throws(Failure) -> Result {
        let shown = TextSanitizer.visible(source)
        guard data.count <= Metalink.sizeLimit else {
            throw Failure(description: "\(shown): a Metalink of more than \(Metalink.sizeLimit >> 20) MiB is refused")
        }
        // Foundation's XMLParser traps on a name that is not UTF-8 (libxml2 passes it on), and
        // a Metalink is UTF-8 (RFC 5854).
        guard String(validating: data, as: UTF8.self) != nil else {
            throw Failure(description: "\(shown): a Metalink must be UTF-8 text; refused")
        }
        if data.range(of: Data("<!DOCTYPE".utf8)) != nil || data.range(of: Data("<!ENTITY".utf8)) != nil {
            throw Failure(description: "\(shown): a Metalink may not declare a DOCTYPE or entities; refused")
        }
        // Nor does it hold a processing instruction, but for the XML declaration that may open
        // it: XMLParser reads past the end of one without data.
        let declaration = Data("<?xml ".utf8)
        let text = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        let body = text.starts(with: declaration) ? text.dropFirst(declaration.count) : text
        if body.range(of: Data("<?".utf8)) != nil {
            throw Failure(description: "\(shown): a Metalink may not hold processing instructions; refused")
        }
        let reader = MetalinkParser(source: shown)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        reader.parser = parser
        let parsed = parser.parse()
        if let failure = reader.failure { throw Failure(description: failure) }
        guard parsed, reader.sawRoot else {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "not XML"
            throw Failure(description: "\(shown):\(parser.lineNumber): not a Metalink document (\(reason))")
        }
        guard !reader.files.isEmpty else {
            let first = reader.problems.first.map { " (\($0))" } ?? ""
            throw Failure(description: "\(shown): the Metalink names no file haul can download\(first)")
        }
        return Result(metalink: Metalink(files: reader.files), problems: reader.problems)
    }

    // MARK: - Reporting

    private var here: String { "\(source):\(parser?.lineNumber ?? 0)" }

    private func fail(_ message: String) {
        guard failure == nil else { return }
        failure = "\(here): \(message)"
        parser?.abortParsing()
    }

    private func skip(_ message: String) {
        problems.append("\(here): \(message)")
    }

    // MARK: - XMLParserDelegate

    public func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        guard sawRoot else {
            guard name == "metalink" else { return fail("<\(TextSanitizer.visible(name))> is not a Metalink") }
            guard namespaceURI == Self.namespace else {
                return fail(
                    namespaceURI == Self.metalink3
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

    public func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard text.utf8.count + string.utf8.count <= Self.textLimit else {
            return fail("an element holds more than \(Self.textLimit) bytes of text")
        }
        text += string
    }

    public func parser(
        _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
    ) {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        text = ""
        guard file != nil, namespaceURI == Self.namespace else { return }
        switch name {
        case "file": endFile()
        case "size":
            guard let size = Int64(value), size >= 0 else { return skipFile("<size> '\(shown(value))' is not a size") }
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

    public func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        fail("a Metalink may not declare entities")
    }

    public func parser(
        _ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?
    ) {
        fail("a Metalink may not declare entities")
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
