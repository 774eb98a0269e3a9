// MARK: - OptionSamples

/// A value each download option accepts, by aria2's name, as a queue file or a client writes it:
/// the option table's tests set each one (HaulCoreTests), and the RPC tests send each one as a
/// network client would (HaulRPCTests).
public enum OptionSamples {
    public static let values: [String: String] = [
        "dir": "/tmp/x", "out": "a/b.iso", "split": "4", "max-connection-per-server": "8", "min-split-size": "2M",
        "max-download-limit": "500K", "checksum": "sha-256=" + String(repeating: "ab", count: 32), "max-tries": "0",
        "retry-wait": "3", "timeout": "9", "connect-timeout": "4", "lowest-speed-limit": "0",
        "resumable-above": "1M", "header": "X-A: b", "user-agent": "ua/1", "referer": "https://u:p@r/",
        "http-user": "me", "http-passwd": "pw", "ftp-user": "f", "ftp-passwd": "fp",
        "all-proxy": "socks5h://h:1080", "http-proxy": "h:3128", "https-proxy": "http://u:p@h:3128",
        "no-proxy": "*", "pause": "true", "allow-overwrite": "true", "auto-file-renaming": "false",
        "conditional-get": "true", "continue": "true", "dry-run": "false", "remote-time": "true",
        "ftp-pasv": "false", "stream-piece-selector": "inorder", "priority": "-5", "split-mode": "fixed",
        "piece-hashes": "sha-1:1048576:" + String(repeating: "0a", count: 20), "follow-metalink": "mem",
        "ssh-private-key": "/k", "ssh-known-hosts": "/kh",
        "ssh-host-key-md": "md5=" + String(repeating: "1f", count: 16),
        "gid": "00000000000000aa", "ca-certificate": "/etc/ca.pem", "check-certificate": "false",
        "seed-ratio": "1.5", "seed-time": "2.5", "select-file": "1,3-5", "bt-tracker": "http://t.test/announce",
        "bt-max-peers": "20", "max-upload-limit": "100K", "bt-seed-unverified": "true", "follow-torrent": "false",
    ]
}
