import Foundation
import Synchronization

// MARK: - CachingLoad

/// What a `ResponseCache` knows of one connection's load: the stored response being confirmed
/// with the server, and the response and body being collected to offer for storing.
///
/// **Threading:** used from the connection's delegate queue; its state is under a lock because
/// `Connection` is shared between threads.
final class CachingLoad: Sendable {
    /// How a load begins.
    enum Plan {
        /// Answer from the cache; nothing is sent.
        case serve(CachedResponse)
        /// Send this request: the original one, or one asking whether the stored response holds.
        case load(Request)
    }

    private struct State {
        /// The stored response a conditional request asks about; a 304 answers with it.
        var revalidating: CachedResponse?
        /// The response (and the request it answered) whose body is collected for the cache.
        var candidate: (response: Response, request: Request)?
        var body = Data()
        var responses = 0
    }

    let cache: ResponseCache
    private let state = Mutex(State())

    init(cache: ResponseCache) {
        self.cache = cache
    }

    // MARK: - Before loading

    /// How to begin `request` under its cache policy: serve a stored response (fresh, or any
    /// under the `returnCacheData…` policies), ask the server about a stale one that has a
    /// validator, or load as if there were no cache.
    func plan(for request: Request, now: Date = Date()) -> Plan {
        guard ResponseCache.isCacheable(request), request.cachePolicy != .reloadIgnoringCache,
            !request.headers.contains("If-None-Match"), !request.headers.contains("If-Modified-Since"),
            let stored = cache.cachedResponse(for: request)
        else { return .load(request) }
        switch request.cachePolicy {
        case .returnCacheDataElseLoad, .returnCacheDataDontLoad:
            return .serve(stored)
        case .useProtocolPolicy where stored.isFresh(at: now) && !CacheControl(request.headers).noCache:
            return .serve(stored)
        case .useProtocolPolicy where stored.canBeRevalidated:
            var conditional = request
            conditional.modify { fields in
                for field in stored.validatingHeaders { fields.headers.set(field.name, field.value) }
            }
            state.withLock { $0.revalidating = stored }
            return .load(conditional)
        case .useProtocolPolicy, .reloadIgnoringCache:
            return .load(request)
        }
    }

    // MARK: - While loading

    /// A final response arrived for `request`. Returns the stored response, confirmed and kept
    /// fresh again, when it is the 304 answering this load's conditional request; otherwise
    /// decides whether this response's body is collected for the cache.
    func received(_ response: Response, for request: Request, now: Date = Date()) -> CachedResponse? {
        let revalidated = state.withLock { state -> CachedResponse? in
            state.responses += 1
            defer { state.revalidating = nil }
            if response.statusCode == 304, let stored = state.revalidating {
                return stored.confirmed(by: response, at: now)
            }
            // A second response in one load is a multipart stream: none of it is stored.
            state.candidate = state.responses == 1 && cache.mayStore(response, for: request) ? (response, request) : nil
            state.body = Data()
            return nil
        }
        if let revalidated {
            // A cache that cannot write keeps serving the old entry; the load itself is fine.
            try? cache.store(revalidated, for: request)
        }
        return revalidated
    }

    /// The delegate's disposition: only a body delivered as data is collected.
    func dispositionChosen(_ disposition: ResponseDisposition) {
        if disposition != .allow { state.withLock { $0.candidate = nil } }
    }

    /// Body bytes delivered to the delegate; collecting stops past `maximumEntrySize`.
    func delivered(_ data: Data) {
        state.withLock { state in
            guard state.candidate != nil else { return }
            if Int64(state.body.count + data.count) > cache.maximumEntrySize {
                state.candidate = nil
                state.body = Data()
            } else {
                state.body.append(data)
            }
        }
    }

    // MARK: - At the end

    /// The response to offer the delegate for storing, at most once, and the request it
    /// answered; nil when it may not be stored.
    func takeCandidate(now: Date = Date()) -> (CachedResponse, Request)? {
        state.withLock { state in
            defer {
                state.candidate = nil
                state.body = Data()
            }
            guard let (response, request) = state.candidate else { return nil }
            // libcurl decoded the body only if the request accepted an encoding.
            let stored =
                request.acceptsEncodedContent ? response.decodedForStorage(bodyLength: state.body.count) : response
            let cached = CachedResponse(
                response: stored,
                data: state.body, storedAt: now,
                varyingRequestHeaders: ResponseCache.varyingHeaders(of: response, in: request))
            return (cached, request)
        }
    }
}

// MARK: - Stored form

extension Response {
    /// The response as the cache keeps it: the body is stored decoded, so the fields that
    /// described its encoding on the wire give way to its stored length.
    func decodedForStorage(bodyLength: Int) -> Response {
        guard let encoding = headers["Content-Encoding"], encoding.lowercased() != "identity" else { return self }
        var stored = headers
        stored.remove("Content-Encoding")
        stored.set("Content-Length", String(bodyLength))
        return Response(
            url: url, statusCode: statusCode, reasonPhrase: reasonPhrase, httpVersion: httpVersion,
            headers: stored, isFromCache: isFromCache)
    }
}
