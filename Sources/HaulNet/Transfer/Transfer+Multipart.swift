import CCurl
import Foundation

// MARK: - multipart/x-mixed-replace

/// A `multipart/x-mixed-replace` body: each part offered to the delegate as a response of its
/// own. Engine thread.
extension Transfer {

    /// Hands on what the parser has: data to the delegate, and a new part as a response (then
    /// waits for its disposition). False when it must wait (for a disposition, or for the
    /// delegate to catch up) or when writing a part to its file failed (the phase says why).
    func pumpMultipart() -> Bool {
        while let event = multipart?.next() {
            switch event {
            case .part(let headers):
                let outer = multipartResponse ?? Response(url: request.url, statusCode: 200)
                var part = Response(
                    url: request.url, statusCode: outer.statusCode, reasonPhrase: outer.reasonPhrase,
                    httpVersion: outer.httpVersion, headers: headers)
                part.isMultipartPart = true
                deliverFinalResponse(part, hopDone: hopDone)
                return false
            case .data(let bytes):
                if let partSink {
                    let url = request.url
                    let outcome = bytes.withUnsafeBytes { buffer in
                        Result { () throws(ConnectionError) in try partSink.write(buffer, url: url) }
                    }
                    switch outcome {
                    case .success(let written):
                        if written > 0 {
                            connection.engineReportWritten(written, expected: response?.expectedContentLength ?? -1)
                        }
                    case .failure(let error):
                        failWhenHopEnds(error)
                        return false
                    }
                } else if !bytes.withUnsafeBytes({ connection.engineEnqueueData($0) }) {
                    multipart?.unread(bytes)
                    return false
                }
            case .malformed(let detail):
                failWhenHopEnds(ConnectionError(kind: .badResponse, url: request.url, detail: detail))
                return false
            }
        }
        return true
    }

    /// Delivers what can be delivered, then receives on, ends, or waits.
    func continueMultipart() {
        guard pumpMultipart() else {
            if case .failing(let error) = phase { fail(error) } else { pauseReceiving() }
            return
        }
        if hopDone { finish() } else { resumeReceiving() }
    }

    /// The delegate answered a part's response: its data follows (to the delegate, or to the
    /// download's file, where it replaces the part before), or the load stops.
    func partDispositionDecided(_ disposition: ResponseDisposition, hopDone: Bool) {
        switch disposition {
        case .cancel:
            detach()
            return
        case .allow:
            partSink?.close()
            partSink = nil
        case .becomeDownload(let target):
            partSink?.close()
            do {
                partSink = try FileSink(target: target, url: request.url)
            } catch {
                partSink = nil
                fail(error)
                return
            }
        }
        phase = .multipart(hopDone: hopDone)
        continueMultipart()
    }
}
