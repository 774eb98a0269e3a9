import Foundation

// MARK: - Answering from the cache

extension Connection {
    /// Delivers a stored body as the delegate's `disposition` asks (on the delegate queue):
    /// as data, or written to the download target; with `finishing`, the load then ends here,
    /// since no transfer will end it.
    func deliverCachedBody(_ data: Data, as disposition: ResponseDisposition, finishing: Bool) {
        switch disposition {
        case .cancel:
            return
        case .allow:
            if !data.isEmpty { deliver { [self] delegate in delegate.connection(self, didReceive: data) } }
        case .becomeDownload(let target):
            deliver { [self] delegate in
                do throws(ConnectionError) {
                    let written = try Connection.write(data, to: target, url: currentRequest.url)
                    delegate.connection(
                        self, didWriteData: written, totalBytesWritten: written,
                        totalBytesExpectedToWrite: Int64(data.count))
                    delegate.connection(self, didFinishDownloadingTo: target.path)
                } catch {
                    // Stop the transfer (a 304 still running) and end with the file's error.
                    engine.submit(.cancel(id))
                    deliverEnding { [self] delegate in delegate.connection(self, didFailWithError: error) }
                }
            }
        }
        if finishing {
            deliverEnding { [self] delegate in delegate.connectionDidFinishLoading(self) }
        }
    }

    /// Writes a stored body into a download target as a transfer would, and returns the bytes
    /// written.
    private static func write(_ data: Data, to target: DownloadTarget, url: URL) throws(ConnectionError) -> Int64 {
        let sink = try FileSink(target: target, url: url)
        defer { sink.close() }
        let result: Result<Int64, ConnectionError> = data.withUnsafeBytes { bytes in
            Result { () throws(ConnectionError) -> Int64 in try sink.write(bytes, url: url) }
        }
        let written = try result.get()
        return written + (try sink.finish(url: url))
    }

    // MARK: - Storing

    /// Offers the response collected for `caching` to the delegate and stores what it returns
    /// (on the delegate queue, once, before the finish).
    func offer(to caching: CachingLoad, delegate: any ConnectionDelegate) {
        guard let (candidate, request) = caching.takeCandidate() else { return }
        guard let kept = delegate.connection(self, willCacheResponse: candidate) else { return }
        // A cache that cannot write (a full disk) costs later loads a transfer, never this one.
        try? caching.cache.store(kept, for: request)
    }
}
