import CFiles
import Foundation
import HaulNet

// MARK: - Files with no name

/// A small whole body goes to a file with no name (`UnnamedFile`), which the engine names when
/// it is complete: no partial file, no store write before it, one directory change, and
/// nothing left behind by a crash. The file carries its download's gid (`SavedFileMark`), so a
/// run killed between the name and the next checkpoint is found complete by the next.
extension DownloadQueue {
    /// The path a body that may go to a file with no name is to have (collisions aside), or
    /// nil when its directory cannot hold such files (then it goes to a partial file). Makes
    /// the directory. On `callbackQueue`, outside the lock.
    func unnamedPath(for request: NameRequest) -> String? {
        StateLockMarker.assertNotHeld("looking at a directory")
        let options = request.download.options.merged(over: configuration.defaults)
        let directory = request.download.directory ?? configuration.directory
        guard canHoldUnnamedFiles(options, in: directory) else { return nil }
        return FileNaming.path(for: options.out ?? FileNaming.name(for: request.response), in: directory)
    }

    /// Whether the folder a file with no name saved as `options.out` (or a name from the
    /// response) in `directory` is made in can hold one. Makes the folder (`makeFolder`): `out`
    /// may name one inside the directory, and the file is made where it will be named.
    private func canHoldUnnamedFiles(_ options: DownloadOptions, in directory: String) -> Bool {
        let folder =
            options.out.map { FileNaming.folderAndName(of: FileNaming.path(for: $0, in: directory)).folder }
            ?? directory
        return (try? makeFolder(folder, named: nil, for: options)) != nil && supportsUnnamedFiles(folder)
    }

    /// Connection `id`'s own answer to a plain 200, as `presumption` allows (see
    /// `UnnamedPresumer`), or nil when its directory cannot hold files with no name. On
    /// `callbackQueue`, outside the lock.
    func presumer(for id: ConnectionID, _ presumption: UnnamedPresumption) -> UnnamedPresumer? {
        StateLockMarker.assertNotHeld("looking at a directory")
        let download = presumption.download
        let options = download.options.merged(over: configuration.defaults)
        let directory = download.directory ?? configuration.directory
        guard canHoldUnnamedFiles(options, in: directory) else { return nil }
        let naming = unnamedNaming(of: download, options: options)
        // The body's length is known, so the file never spills to a partial file: the download
        // is needed for its gid only, as it started.
        return UnnamedPresumer(limit: presumption.limit) { [self] response in
            let (folder, name) = FileNaming.folderAndName(
                of: FileNaming.path(for: options.out ?? FileNaming.name(for: response), in: directory))
            let write = UnnamedWrite(
                download: download, directory: folder, name: name, spillAfter: nil,
                validators: ConditionalGet.Validators(response))
            return unnamedFile(id, write, naming)
        }
    }

    /// Whether files with no name can be made in `directory` (asked once a directory). Only an
    /// answer about the file system is kept: a failure for want of descriptors or memory
    /// (`EMFILE`, `ENFILE`, `ENOMEM`…) makes this download's a partial file and asks again next time.
    /// A directory that can is listed for its `NAME.part` files then (`PartFileNames`), once.
    private func supportsUnnamedFiles(_ directory: String) -> Bool {
        if let known = unnamedSupport.withLock({ $0[directory] }) { return known }
        let descriptor = haul_open_unnamed(directory, 0o644)
        let error = errno
        if descriptor >= 0 { close(descriptor) }
        let supported = descriptor >= 0
        if supported || [EOPNOTSUPP, EISDIR, EINVAL, EACCES, EROFS].contains(error) {
            if supported { partFileNames.list(directory) }
            unnamedSupport.withLock { $0[directory] = supported }
        }
        return supported
    }

    /// What naming a download's files with no name needs of the download itself, worked out on
    /// `callbackQueue`: a connection that answers its own response (`UnnamedPresumer`) makes
    /// its file on the engine thread, which has every other file's bytes to move.
    struct UnnamedNaming: Sendable {
        let remoteTime: Bool
        let conditionalGet: Bool
        /// The download's first URI, made a URL only for an error to name.
        let uri: String
        let shownURI: String

        var url: URL? { URL(string: uri) }
    }

    /// `UnnamedNaming` for `download`, whose `options` are its own merged over the queue's.
    func unnamedNaming(of download: Download, options: DownloadOptions) -> UnnamedNaming {
        UnnamedNaming(
            remoteTime: options.remoteTime == true, conditionalGet: options.conditionalGet == true,
            uri: download.uris.first ?? "", shownURI: download.displayURI)
    }

    /// The file with no name connection `id` writes: named when complete with what the
    /// download's options keep with it (the server's time, its ETag for a conditional get, the
    /// mark), or spilled to a partial file, recorded in the store, when a body of unknown length
    /// grows past the limit. The namers run on the engine thread.
    func unnamedFile(_ id: ConnectionID, _ write: UnnamedWrite, _ naming: UnnamedNaming) -> UnnamedFile {
        let download = write.download
        let (directory, name, validators) = (write.directory, write.name, write.validators)
        let lastModified = validators.lastModified
        let served = lastModified.flatMap(HTTPDate.parse)
        let partNames = partFileNames
        return UnnamedFile(
            directory: directory, spillAfter: write.spillAfter,
            name: { descriptor throws(ConnectionError) in
                if naming.remoteTime { ConditionalGet.applyRemoteTime(lastModified, toDescriptor: descriptor) }
                if naming.conditionalGet {
                    ConditionalGet.rememberEntityTag(validators.entityTag, ofDescriptor: descriptor)
                }
                SavedFileMark.mark(
                    descriptor: descriptor, uri: naming.shownURI, gid: download.id, lastModified: served)
                do throws(OptionError) {
                    let named = try FileNaming.link(
                        descriptor: descriptor, as: name, in: directory, gid: download.id, skipping: partNames.holds)
                    partNames.saved(named)
                    return named
                } catch {
                    throw ConnectionError(kind: .fileWrite, url: naming.url, detail: error.description)
                }
            },
            spill: { [weak self] descriptor throws(ConnectionError) in
                guard let self else {
                    throw ConnectionError(kind: .fileWrite, url: naming.url, detail: "the queue is gone")
                }
                let partial = try spill(descriptor, of: download, name: name, in: directory, url: naming.url)
                deliver(.spilled(id, path: partial))
                return partial
            })
    }

    /// Names the unnamed file of `download` as a partial file, recorded in the store first.
    private func spill(
        _ descriptor: Int32, of download: Download, name: String, in directory: String, url: URL?
    ) throws(ConnectionError) -> String {
        for _ in 0..<100 {
            var named = download
            let destination = FileNaming.uniqueDestination(for: name, in: directory, allowOverwrite: false)
            named.destination = destination
            journal?.recordDestination(of: named)
            partFileNames.hold(destination)
            let partial = FileNaming.partialPath(of: destination)
            if haul_link_descriptor(descriptor, partial) == 0 { return partial }
            guard errno == EEXIST else {
                throw ConnectionError(kind: .fileWrite, url: url, systemError: errno, detail: partial)
            }
        }
        throw ConnectionError(kind: .fileWrite, url: url, detail: "every name like \(name) in \(directory) is taken")
    }
}
