import HaulCore

// MARK: - SecretArguments

/// Hides the values of the options that carry a secret (`--rpc-secret`, `--http-passwd`…) in the
/// process's own argument memory once they are read, as aria2c does: `ps` and
/// /proc/PID/cmdline then show `*`, not the secret, to every user of the machine.
enum SecretArguments {
    /// The long names whose value is a secret.
    static var names: Set<String> {
        Set(["rpc-secret"] + DownloadOptionTable.all.filter(\.isSecret).map(\.name))
    }

    /// Overwrites each secret value among the arguments with `*` (then NUL bytes, which `ps`
    /// shows as spaces). Call it once `CommandLine.arguments` has been read.
    static func hide() {
        let names = names
        var hidesNext = false
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let text = String(cString: argument)
            if hidesNext {
                hidesNext = false
                blank(argument, from: 0, count: text.utf8.count)
                continue
            }
            guard text.hasPrefix("--") else { continue }
            let option = text.dropFirst(2)
            if let equals = option.firstIndex(of: "=") {
                let start = text.utf8.distance(from: text.startIndex, to: equals) + 1
                if names.contains(String(option[..<equals])) {
                    blank(argument, from: start, count: text.utf8.count - start)
                }
            } else {
                hidesNext = names.contains(String(option))
            }
        }
    }

    /// Writes `*` and then NUL bytes over the `count` bytes from `start` of `argument`.
    private static func blank(_ argument: UnsafeMutablePointer<CChar>, from start: Int, count: Int) {
        guard count > 0 else { return }
        argument[start] = CChar(UInt8(ascii: "*"))
        for offset in 1..<count { argument[start + offset] = 0 }
    }
}
