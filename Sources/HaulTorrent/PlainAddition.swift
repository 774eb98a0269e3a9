import CTorrent
import Foundation

// MARK: - PlainAddition

/// A `TorrentAddition` as CTorrent's struct: copies of its strings and arrays, owned by this
/// object and freed with it, so `params` is valid for as long as the object lives.
final class PlainAddition {
    var params = haul_ts_add_params()
    private var owned: [UnsafeMutableRawPointer] = []

    init(_ addition: TorrentAddition) {
        params.key = addition.key
        switch addition.source {
        case .metainfo(let bytes):
            params.metainfo = copy(bytes, as: CChar.self)
            params.metainfo_size = bytes.count
        case .magnet(let link):
            params.magnet = copy(link)
        }
        if let resume = addition.resumeData {
            params.resume = copy(resume, as: CChar.self)
            params.resume_size = resume.count
        }
        params.save_path = copy(addition.savePath)
        params.trackers = copy(addition.trackers)
        params.tracker_count = addition.trackers.count
        params.web_seeds = copy(addition.webSeeds)
        params.web_seed_count = addition.webSeeds.count
        params.peers = copy(addition.peers)
        params.peer_count = addition.peers.count
        if !addition.filePriorities.isEmpty {
            params.file_priorities = copy(addition.filePriorities, as: UInt8.self)
            params.file_priority_count = addition.filePriorities.count
        }
        let renamed = addition.renamedFiles.sorted { $0.key < $1.key }
        params.renamed_indexes = copy(renamed.map { Int32(clamping: $0.key) }, as: Int32.self)
        params.renamed_paths = copy(renamed.map(\.value))
        params.renamed_count = renamed.count
        params.max_connections = Int32(clamping: addition.maxConnections)
        params.download_limit = Int32(clamping: addition.downloadLimit)
        params.upload_limit = Int32(clamping: addition.uploadLimit)
        params.seed_unverified = addition.seedUnverified
        params.hold = addition.hold
    }

    deinit {
        for memory in owned { free(memory) }
    }

    /// A copy of the bytes of `values` (plain values), read as `Element`s of the same size,
    /// owned by this object.
    private func copy<Value, Element>(_ values: [Value], as _: Element.Type) -> UnsafePointer<Element>? {
        precondition(MemoryLayout<Value>.stride == MemoryLayout<Element>.stride)
        guard !values.isEmpty, let memory = malloc(values.count * MemoryLayout<Value>.stride) else { return nil }
        owned.append(memory)
        values.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { memory.copyMemory(from: base, byteCount: bytes.count) }
        }
        return UnsafePointer(memory.assumingMemoryBound(to: Element.self))
    }

    /// A C copy of `text`, owned by this object.
    private func copy(_ text: String) -> UnsafePointer<CChar>? {
        guard let memory = strdup(text) else { return nil }
        owned.append(memory)
        return UnsafePointer(memory)
    }

    /// C copies of `texts`, and the array of them, owned by this object.
    private func copy(_ texts: [String]) -> UnsafePointer<UnsafePointer<CChar>?>? {
        copy(texts.map { copy($0) }, as: UnsafePointer<CChar>?.self)
    }
}
