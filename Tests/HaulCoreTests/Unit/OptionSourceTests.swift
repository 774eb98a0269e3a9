import Foundation
import HaulNet
import Testing

@testable import HaulCore

// MARK: - OptionSourceTests

/// Who may set an option, walked over every option and every source: the option table's column
/// is what each reader takes, and a download from a less trusted source carries none of the
/// user's credentials.
@Suite("Option sources")
struct OptionSourceTests {
    @Test("an option that can replace files, move traffic, weaken a check or name a file is the owner's or says why")
    func risksAreOwnedOrReasoned() {
        for option in DownloadOptionTable.all where option.risk != nil {
            #expect(option.settableBy == .owner || option.trustReason != nil, "\(option.name)")
        }
        for option in DownloadOptionTable.all where option.risk == nil {
            #expect(option.settableBy == .remoteList && option.trustReason == nil, "\(option.name)")
        }
    }

    @Test(
        "every option from every queue-file source: taken when the column allows it, refused by its line otherwise",
        arguments: DownloadOptionTable.all)
    func queueFiles(_ option: DownloadOption) throws {
        let sample = try #require(DownloadOptionTableTests.samples[option.name])
        // A plain name, which the name gate leaves as it is, so that only the column decides.
        let value = option.name == "out" ? "b.iso" : sample
        for source in [OptionSource.queueFile, .remoteList] {
            let text = "http://h/a\n  \(option.name)=\(value)\n"
            let read = try InputFile.read(Array(text.utf8), name: "list", origin: source)
            let refusal = read.problems.first { $0.message.contains("is not taken from \(source)") }
            let refused = refusal != nil
            #expect(refused == (source > option.settableBy), "\(option.name) from \(source): \(read.problems)")
            // A list loaded by URL that asks for more than it may is an error; a session aria2 saved, a warning.
            #expect(refusal.map { $0.isWarning == (source == .queueFile) } ?? true)
            let entry = try #require(read.entries.first)
            // A gid is kept with the entry, apart from its options.
            let kept = entry.gid != nil || entry.options.pairs(includingSecrets: true).contains { $0.0 == option.name }
            #expect(kept == !refused)
        }
    }

    @Test("the built-in value is taken from any source: it grants nothing", arguments: DownloadOptionTable.all)
    func builtInFromAnywhere(_ option: DownloadOption) {
        guard let builtIn = option.builtIn else { return }
        for source in OptionSource.allCases {
            #expect(option.refusal(of: builtIn, from: source) == nil, "\(option.name)=\(builtIn) from \(source)")
        }
    }

    @Test("a refusal names the option, the source, what the option can do and who may set it")
    func refusalMessage() throws {
        let proxy = try #require(DownloadOptionTable.option(named: "all-proxy"))
        #expect(
            proxy.refusal(of: "http://evil:8080", from: .remoteList)
                == "all-proxy=http://evil:8080 is not taken from a list loaded by URL: it moves where downloads, and "
                + "the logins they carry, go; give it on the command line or in a queue file you name by its path")
        let overwrite = try #require(DownloadOptionTable.option(named: "allow-overwrite"))
        #expect(
            overwrite.refusal(of: "true", from: .queueFile)?.hasSuffix("on the command line or in config.toml") == true)
        #expect(overwrite.refusal(of: "true", from: .owner) == nil)
    }

    @Test("entries of a list loaded by URL are that list's, and the store keeps whose they are")
    func sourceKept() throws {
        let text = "http://h/a\nhttp://h/b\n  split=2\n"
        let remote = try InputFile.read(Array(text.utf8), name: "list", origin: .remoteList)
        #expect(remote.entries.map(\.options.source) == [.remoteList, .remoteList])
        let own = try InputFile.read(Array(text.utf8), name: "list", origin: .queueFile)
        #expect(own.entries.map(\.options.source) == [nil, nil])
        var options = DownloadOptions()
        options.source = .networkClient
        #expect(DownloadStore.text(of: options) == "haul-source=network-client")
    }

    /// A request for `url` of a download from `source`, with the netrc's login for 127.0.0.1 and
    /// the owner's defaults carrying a bearer token and a login.
    private func request(_ url: String, from source: OptionSource?, own: [(String, String)] = []) throws -> Request {
        var configuration = DownloadQueue.Configuration()
        configuration.netrc = Netrc(parsing: "machine 127.0.0.1 login ann password netrc-secret")
        var defaults = DownloadOptions()
        try defaults.set("header", "Authorization: Bearer owner-token")
        try defaults.set("header", "X-Trace: 1")
        configuration.defaults = defaults
        var options = DownloadOptions()
        options.source = source
        for (name, value) in own { try options.set(name, value) }
        return configuration.request(
            for: try #require(URL(string: url)), options: EffectiveOptions(options.merged(over: configuration.defaults))
        )
    }

    @Test("the user's downloads log in with netrc and the defaults' credentials; others' only with their own")
    func credentialsStayWithTheUser() throws {
        let users = try request("http://127.0.0.1/f", from: nil)
        #expect(users.credentials?.password == "netrc-secret" && users.ssh.mayUseOwnIdentity)
        #expect(users.headers["Authorization"] == "Bearer owner-token")
        for source in [OptionSource.networkClient, .remoteList] {
            let others = try request("http://127.0.0.1/f", from: source)
            #expect(others.credentials == nil && !others.ssh.mayUseOwnIdentity, "\(source)")
            #expect(others.headers["Authorization"] == nil && others.headers["X-Trace"] == "1", "\(source)")
            let ownLogin = try request(
                "http://127.0.0.1/f", from: source, own: [("http-user", "bob"), ("header", "Cookie: c=1")])
            #expect(ownLogin.credentials?.user == "bob" && ownLogin.headers["Cookie"] == "c=1", "\(source)")
        }
    }

    @Test("a server's Metalink chooses its mirrors: they get none of the credentials given for its URI")
    func serverMetalinkMirrors() throws {
        let document = """
            <metalink xmlns="urn:ietf:params:xml:ns:metalink"><file name="f.iso">
            <url>https://mirror.example/f.iso</url></file></metalink>
            """
        let metalink = try MetalinkParser.parse(Data(document.utf8), source: "m.meta4").metalink
        var inherited = DownloadOptions()
        try inherited.set("header", "Authorization: Bearer owner-token")
        try inherited.set("http-user", "ann")
        try inherited.set("split", "4")
        let served = try #require(metalink.entries(inheriting: inherited, fromServer: true).first)
        #expect(served.options.headers.isEmpty && served.options.httpUser == nil)
        #expect(served.options.split == 4 && served.options.source == .remoteList)
        let own = try #require(metalink.entries(inheriting: inherited, fromServer: false).first)
        #expect(own.options.headers == ["Authorization: Bearer owner-token"] && own.options.source == nil)
    }
}
