import Foundation
import Testing

@testable import HaulCore

/// `max-download-result`: the queue keeps the results of the last N ended downloads.
@Suite("Result limit")
struct ResultLimitTests {
    private func download(_ number: Int, _ state: Download.State) -> Download {
        var download = Download(id: GID(UInt64(number)) ?? .next(), uris: ["http://127.0.0.1/\(number)"])
        download.state = state
        return download
    }

    @Test("the oldest ended downloads leave first; a retried one is no longer a result; removed ones are forgotten")
    func keepsTheLast() {
        let limit = ResultLimit(limit: 2)
        #expect(limit.note(.added([download(1, .complete), download(2, .queued), download(3, .failed)])) == [])
        #expect(limit.note(.stateChanged(download(2, .complete), from: .active)) == [download(1, .complete).id])
        #expect(limit.note(.stateChanged(download(3, .queued), from: .active)) == [])
        #expect(limit.note(.stateChanged(download(4, .cancelled), from: .active)) == [])
        #expect(limit.note(.stateChanged(download(5, .complete), from: .active)) == [download(2, .complete).id])
        #expect(limit.note(.removed(id: download(4, .complete).id)) == [])
        #expect(limit.note(.stateChanged(download(6, .failed), from: .active)) == [])
        #expect(limit.note(.stateChanged(download(6, .failed), from: .active)) == [])
        #expect(limit.note(.stateChanged(download(7, .complete), from: .active)) == [download(5, .complete).id])
    }

    @Test("a limit of 0 keeps no ended download")
    func none() {
        let limit = ResultLimit(limit: 0)
        #expect(limit.note(.stateChanged(download(1, .complete), from: .active)) == [download(1, .complete).id])
    }
}
