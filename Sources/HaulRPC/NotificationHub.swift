import NIOCore
import NIOWebSocket
import Synchronization

// MARK: - NotificationHub

/// The WebSocket clients connected now, and what they all hear: each notification is encoded
/// once and written to every one. Any thread.
package final class NotificationHub: Sendable {
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])

    package init() {}

    func join(_ channel: any Channel) {
        channels.withLock { $0[ObjectIdentifier(channel)] = channel }
    }

    func leave(_ channel: any Channel) {
        _ = channels.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// How many clients listen.
    package var count: Int { channels.withLock { $0.count } }

    /// Sends `notification` to every client.
    package func post(_ notification: Aria2Notification) {
        let text = notification.json.encoded
        for channel in channels.withLock({ Array($0.values) }) {
            let frame = WebSocketFrame(fin: true, opcode: .text, data: channel.allocator.buffer(bytes: text))
            channel.writeAndFlush(frame, promise: nil)
        }
    }
}
