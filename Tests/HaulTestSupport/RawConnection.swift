import Foundation

// MARK: - RawConnection

/// A TCP connection to a port on 127.0.0.1 that sends and reads bytes as they are, for tests
/// that act as an attacker would: requests a client library would never send, connections left
/// idle, replies never read. Closed when released.
public final class RawConnection {
    public let descriptor: Int32

    /// Connects to `port`; throws when nothing accepts.
    public init(port: Int) throws {
        descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(descriptor)
            throw NginxServer.SetupError(description: "cannot connect to 127.0.0.1:\(port)")
        }
    }

    deinit {
        close(descriptor)
    }

    /// Sends all of `text`; false when the peer closed first.
    @discardableResult
    public func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// What arrives within `timeout` seconds, until the peer closes or, with `until`, until the
    /// text read so far contains it; nil when the peer closed without sending anything.
    public func receive(timeout: Double, until marker: String? = nil) -> String? {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(deadline.timeIntervalSinceNow * 1000, 1))
            guard poll(&poller, 1, left) > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return received.isEmpty ? nil : String(decoding: received, as: UTF8.self) }
            received += buffer[..<count]
            if let marker, String(decoding: received, as: UTF8.self).contains(marker) { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Whether the peer has closed the connection (within `timeout` seconds).
    public func isClosed(within timeout: Double) -> Bool {
        receive(timeout: timeout) == nil
    }

    /// Whether the peer closes the connection within `timeout` seconds, whatever it sends first.
    public func ends(within timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(deadline.timeIntervalSinceNow * 1000, 1))
            guard poll(&poller, 1, left) > 0 else { return false }
            if buffer.withUnsafeMutableBytes({ recv(descriptor, $0.baseAddress, $0.count, 0) }) <= 0 { return true }
        }
        return false
    }
}
