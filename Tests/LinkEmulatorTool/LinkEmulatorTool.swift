import Foundation
import HaulTestSupport

// MARK: - LinkEmulatorTool

/// The link emulator as a program, for `bench/run.sh`: it forwards 127.0.0.1:PORT to
/// 127.0.0.1:TARGET, prints PORT on a line, and runs until it is killed.
///
///     LinkEmulatorTool TARGET [--rate BYTES_PER_SECOND] [--delay ONE_WAY_MS]
@main
struct LinkEmulatorTool {
    static func main() throws {
        var arguments = CommandLine.arguments.dropFirst()
        guard let target = arguments.popFirst().flatMap(Int.init) else {
            fail("usage: LinkEmulatorTool TARGET [--rate B/S] [--delay MS]")
        }
        var shape = LinkEmulator.Shape()
        while let flag = arguments.popFirst() {
            guard let value = arguments.popFirst().flatMap(Int.init) else { fail("\(flag) needs a whole number") }
            switch flag {
            case "--rate": shape.bytesPerSecond = value
            case "--delay": shape.oneWayDelayMilliseconds = value
            default: fail("unknown option \(flag)")
            }
        }
        let link = try LinkEmulator(targetPort: target, shape: shape)
        FileHandle.standardOutput.write(Data("\(link.port)\n".utf8))
        while true { sleep(3600) }
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("LinkEmulatorTool: \(message)\n".utf8))
        exit(64)
    }
}
