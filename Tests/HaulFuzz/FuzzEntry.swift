import Foundation

// MARK: - FuzzEntry

/// The entry point: built with `-sanitize=fuzzer` (and `-D FUZZING`), libFuzzer's driver runs
/// the target `HAUL_FUZZ_TARGET` names on the inputs it makes; built plainly, the program runs
/// a target over the files and folders it is given (`HaulFuzz TARGET PATH…`), which replays
/// the seed corpus, or a crash a fuzzer found, in any build.
enum FuzzEntry {
    nonisolated(unsafe) static var target = FuzzTarget.queueFile

    /// The target named by `name`, or a message listing them.
    static func target(named name: String?) -> FuzzTarget? {
        guard let name, let target = FuzzTarget(rawValue: name) else {
            let known = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("haul-fuzz: name a target (\(known))\n".utf8))
            return nil
        }
        return target
    }
}

#if FUZZING
    /// libFuzzer's driver, run from this program's own main (SwiftPM names every executable's main).
    @_silgen_name("LLVMFuzzerRunDriver")
    private func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    /// One input, as libFuzzer hands it over (its runtime also refers to this name).
    @_cdecl("LLVMFuzzerTestOneInput")
    func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        FuzzEntry.target.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    }
#endif

@main
struct FuzzMain {
    static func main() {
        #if FUZZING
            guard let target = FuzzEntry.target(named: ProcessInfo.processInfo.environment["HAUL_FUZZ_TARGET"]) else {
                exit(2)
            }
            FuzzEntry.target = target
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
        #else
            let arguments = CommandLine.arguments.dropFirst()
            guard let target = FuzzEntry.target(named: arguments.first) else { exit(2) }
            var count = 0
            for path in arguments.dropFirst() {
                let paths =
                    (try? FileManager.default.contentsOfDirectory(atPath: path).sorted().map { "\(path)/\($0)" }) ?? [
                        path
                    ]
                for file in paths {
                    guard let data = FileManager.default.contents(atPath: file) else { continue }
                    target.run(Array(data))
                    count += 1
                }
            }
            print("haul-fuzz \(target.rawValue): \(count) inputs, no property broken")
        #endif
    }
}
