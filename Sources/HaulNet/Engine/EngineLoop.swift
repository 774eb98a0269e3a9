import CCurl
import Foundation

// MARK: - EngineLoop

/// The engine thread's own state: its multi handles and the transfers on them. Lives on that
/// thread only, so it needs no lock.
///
/// Each turn of the loop applies the commands posted, lets libcurl act on each multi handle's
/// due timeouts, hands finished transfers their results, then waits on every handle's sockets
/// at once (`curl_multi_poll` on its own handle, which a command posted from another thread
/// wakes) and lets libcurl act on the sockets found ready: two `MultiHandle`s, driven the same
/// way.
final class EngineLoop {
    private let engine: ConnectionEngine
    /// The engine's own multi handle: every transfer but the pool's.
    private let own: MultiHandle
    /// The connections to hosts that answered over HTTP/2, on a multi handle of their own.
    private let pool: StreamPool
    private var transfers: [UInt64: Transfer] = [:]
    /// The poll's descriptors, kept between turns so that a turn makes no array.
    private var descriptors: [curl_waitfd] = []
    private let overallLimit = SharedLimit()
    private let handles: EasyHandlePool
    private let cookies = CookieJar()
    /// TLS sessions and DNS, shared by every transfer while cookies are off.
    private let sessions = ShareHandle(sharingCookies: false)
    /// The most transfers that have run at once. libcurl's connection cache keeps four idle
    /// connections for each transfer on the multi handle *now*, so a moment with few (the
    /// queue between one small file and the next) closed connections the next files then
    /// opened again: up to 11 more than 16 in a run of 1000 files 16 at a time. The cache is
    /// sized by this peak instead (`CURLMOPT_MAXCONNECTS`), and never shrinks.
    private var peakTransfers = 0

    init(engine: ConnectionEngine) {
        self.engine = engine
        let configuration = engine.configuration
        own = MultiHandle(
            connectionsPerHost: configuration.maxConnectionsPerHost,
            totalConnections: configuration.maxTotalConnections)
        handles = EasyHandlePool(bufferSize: configuration.receiveBufferSize)
        pool = StreamPool(
            connectionsPerHost: configuration.pooledConnectionsPerHost,
            streamsPerConnection: configuration.streamsPerConnection)
        let wake = ConnectionEngine.WakeHandle(multi: own.pointer)
        engine.mailbox.withLock { $0.wake = wake }
    }

    // MARK: - Loop

    func run() {
        EngineThread.precondition()
        while true {
            let commands = engine.takeCommands()
            for (index, command) in commands.enumerated() {
                if case .shutdown = command {
                    stop(unapplied: commands[(index + 1)...])
                    engine.deliveries.release()
                    return
                }
                apply(command)
            }
            forEachDriven { $0.act(on: []) }
            collectFinished()
            var timeout = resumeCappedTransfers()
            forEachDriven { timeout = min(timeout, $0.timeoutMilliseconds ?? .max) }
            // The turn's messages go to their queues before the loop waits.
            engine.deliveries.release()
            descriptors.removeAll(keepingCapacity: true)
            forEachDriven { $0.appendWaitDescriptors(to: &descriptors) }
            haul_curl_multi_poll(own.pointer, &descriptors, UInt32(descriptors.count), timeout, nil)
            forEachDriven { $0.act(on: descriptors) }
        }
    }

    /// Runs `body` on each multi handle to drive: the engine's own, and the pool's once a host
    /// is learned (with no array made: this runs several times a turn).
    private func forEachDriven(_ body: (MultiHandle) -> Void) {
        body(own)
        if pool.isInUse { body(pool.multi) }
    }

    private func apply(_ command: ConnectionEngine.Command) {
        switch command {
        case .start(let connection):
            // Cancelled before its start got here (a cached load starts from the delegate queue,
            // so a cancel from another thread can overtake it).
            guard !connection.isDone else { break }
            let transfer = Transfer(
                connection: connection, multi: own.pointer, pool: pool, handles: handles, overallLimit: overallLimit,
                share: cookies.share ?? sessions)
            transfers[connection.id] = transfer
            if transfers.count > peakTransfers {
                peakTransfers = transfers.count
                own.keepConnections(4 * peakTransfers)
            }
            transfer.begin()
        case .cancel(let id):
            transfers.removeValue(forKey: id)?.close()
        case .redirectDecision(let id, let request):
            transfers[id]?.redirectDecided(request)
        case .disposition(let id, let disposition):
            transfers[id]?.dispositionDecided(disposition)
        case .challengeDecision(let id, let disposition):
            transfers[id]?.challengeDecided(disposition)
        case .resumeReceiving(let id):
            transfers[id]?.deliveryCaughtUp()
        case .setMaxReceiveSpeed(let id, let speed):
            transfers[id]?.setMaxReceiveSpeed(speed)
        case .limitDownload(let id, let end):
            transfers[id]?.limitDownload(to: end)
        case .setMaxOverallReceiveSpeed(let speed):
            overallLimit.setRate(speed)
            for transfer in transfers.values { transfer.wakeIfWaitingOnCap() }
        case .cookies(.turnOn(let paths, let reply)):
            reply(Result { () throws(CookieError) in try cookies.turnOn(loading: paths) })
        case .cookies(.save(let path, let reply)):
            reply(Result { () throws(CookieError) in try cookies.save(to: path) })
        case .shutdown:
            break
        }
        removeEnded()
    }

    /// Resumes the transfers whose speed cap allows them to receive again; returns how long
    /// the loop may sleep (ms) before the next one is due.
    private func resumeCappedTransfers() -> Int32 {
        let now = MonotonicClock.nanoseconds()
        var endedOnResume = false
        for transfer in transfers.values {
            guard let due = transfer.resumeAt, due <= now else { continue }
            transfer.resumeReceiving()
            // Its segment may have been complete: it ended as it was resumed.
            endedOnResume = endedOnResume || transfer.hasEnded
        }
        if endedOnResume { removeEnded() }
        // A transfer resumed above may have paused again at once, with a new due time.
        let next = transfers.values.lazy.compactMap(\.resumeAt).min()
        return Int32(next.map { $0 > now ? min(1000, ($0 - now) / 1_000_000 + 1) : 0 } ?? 1000)
    }

    /// Hands every transfer libcurl reports done, on either multi handle, to its `Transfer`.
    private func collectFinished() {
        forEachDriven { multi in multi.readFinished { id, result in transfers[id]?.hopCompleted(result) } }
        removeEnded()
    }

    private func removeEnded() {
        // Asked after every command: most find nothing, and then allocate nothing.
        guard transfers.values.contains(where: \.hasEnded) else { return }
        // The ended ones are found first: removing while iterating made the dictionary copy
        // itself for every transfer removed.
        let ended = transfers.compactMap { $0.value.hasEnded ? $0.key : nil }
        for id in ended { transfers.removeValue(forKey: id)?.close() }
    }

    /// Closes every transfer and refuses the commands that came after the shutdown, so a
    /// caller waiting for a cookie command's reply gets one.
    private func stop(unapplied: ArraySlice<ConnectionEngine.Command>) {
        for transfer in transfers.values { transfer.close() }
        transfers.removeAll()
        handles.drain()
        let posted = engine.mailbox.withLock { mailbox in
            mailbox.stopped = true
            mailbox.wake = nil
            defer { mailbox.commands.removeAll() }
            return mailbox.commands
        }
        for case .cookies(let command) in unapplied + posted { command.refuse(CookieError("the engine stopped")) }
        own.close()
        pool.multi.close()
    }
}
