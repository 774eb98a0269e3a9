// MARK: - URIList

/// A download's URIs, mirrors of one file, as text. Most downloads have one: it is kept inline,
/// without an array of its own, which would cost a heap block per download (tens of megabytes in a
/// queue of a million).
///
/// **Threading:** a value.
public struct URIList: RandomAccessCollection, ExpressibleByArrayLiteral, Equatable, Sendable {
    private enum Storage: Equatable, Sendable {
        case none
        case one(String)
        case many([String])
    }

    private var storage: Storage

    /// The list of `uris`, in order.
    ///
    /// - Parameter uris: The URIs: the first and its mirrors.
    public init(_ uris: [String]) {
        switch uris.count {
        case 0: storage = .none
        case 1: storage = .one(uris[0])
        default: storage = .many(uris)
        }
    }

    /// The list of the URIs written as an array literal.
    ///
    /// - Parameter uris: The URIs: the first and its mirrors.
    public init(arrayLiteral uris: String...) {
        self.init(uris)
    }

    public var startIndex: Int { 0 }

    public var endIndex: Int {
        switch storage {
        case .none: 0
        case .one: 1
        case .many(let uris): uris.count
        }
    }

    /// The URI at `position`.
    ///
    /// - Parameter position: An index from 0 below `count`.
    /// - Returns: The URI there.
    public subscript(position: Int) -> String {
        switch storage {
        case .none: preconditionFailure("no URI at \(position) of none")
        case .one(let uri):
            precondition(position == 0, "no URI at \(position) of one")
            return uri
        case .many(let uris): return uris[position]
        }
    }

    /// The URIs as one text, `separator` between them; a single URI is that URI, not a copy.
    ///
    /// - Parameter separator: What goes between two URIs (a TAB in a queue file).
    /// - Returns: The joined text.
    public func joined(separator: String) -> String {
        switch storage {
        case .none: ""
        case .one(let uri): uri
        case .many(let uris): uris.joined(separator: separator)
        }
    }

    /// Adds mirrors at the end.
    ///
    /// - Parameter uris: The mirrors, in order.
    public mutating func append(contentsOf uris: some Sequence<String>) {
        for uri in uris { append(uri) }
    }

    /// Adds a mirror at the end.
    ///
    /// - Parameter uri: The mirror.
    public mutating func append(_ uri: String) {
        switch storage {
        case .none: storage = .one(uri)
        case .one(let first): storage = .many([first, uri])
        case .many(var uris):
            storage = .none
            uris.append(uri)
            storage = .many(uris)
        }
    }

    /// These mirrors with each of `removing` taken off (its first occurrence), then `adding` put
    /// at `position` among the rest (the end when nil or past it), as aria2's `changeUri` changes
    /// them; and how many were taken off.
    ///
    /// - Parameters:
    ///   - removing: URIs to take off; one not in the list is passed over.
    ///   - adding: URIs to put in.
    ///   - position: Where among the rest to put them, from 0; nil for the end.
    /// - Returns: The new list and how many were taken off.
    public func changed(removing: [String], adding: [String], at position: Int?) -> (uris: URIList, removed: Int) {
        var uris = Array(self)
        var removed = 0
        for uri in removing {
            guard let index = uris.firstIndex(of: uri) else { continue }
            uris.remove(at: index)
            removed += 1
        }
        uris.insert(contentsOf: adding, at: Swift.min(Swift.max(position ?? uris.count, 0), uris.count))
        return (URIList(uris), removed)
    }
}
